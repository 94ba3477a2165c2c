import { Announcer } from '../components/announcer';
import { Composer } from '../components/composer';
import { FeedbackModal } from '../components/feedback-modal';
import { Controls, Copyright } from '../components/footer';
import { Header } from '../components/header';
import { Notes } from '../components/notes';
import { StarAnnouncement } from '../components/star-count';
import { Transcript } from '../components/transcript';
import type { ConversationDeps } from '../conversation/controller';
import { isBusy, isInitializing, lastReplyText, openQuestionId } from '../conversation/state';
import { useConversation } from '../conversation/use-conversation';
import { useSkipKey } from '../conversation/use-skip-key';
import { useMessages } from '../i18n/use-messages';
import { settings } from '../lib/env';

/** The one screen (docs/behaviour.md §2): header, transcript, footer, and the feedback modal over them. */
export function App({ deps }: { readonly deps?: () => ConversationDeps }) {
  const { state, controller } = useConversation(deps);
  const t = useMessages(state.language);
  const busy = isBusy(state);
  const modalOpen = state.feedback.open;
  useSkipKey(state.status === 'speaking' && !modalOpen, () => controller.skip());

  return (
    <>
      <div className="app" inert={modalOpen}>
        <Header
          t={t}
          settings={settings}
          language={state.language}
          choicesLocked={state.active}
          onLanguage={(language) => controller.selectLanguage(language)}
          level={state.level}
          onLevel={(level) => controller.selectLevel(level)}
        />
        <main className="stage">
          <Transcript
            t={t}
            messages={state.messages}
            interim={state.interim}
            language={state.conversationLanguage}
            questionId={openQuestionId(state)}
          />
          <a className="contact-link" href={settings.contactUrl} target="_blank" rel="noopener noreferrer">
            <span aria-hidden="true">✉</span>
            <span className="contact-text">{t.contact}</span>
          </a>
        </main>
        <footer className="app-footer">
          <Notes
            t={t}
            offlineTutor={state.offlineTutor}
            spendLimit={state.spendLimit}
            engine={state.active ? state.engine : null}
            listeningHealth={state.active ? state.listeningHealth : null}
            voiceMissing={state.active && state.voiceMissing}
          />
          <Composer
            t={t}
            active={state.active}
            canSend={state.active && state.status === 'listening'}
            onSend={(text) => controller.submitUtterance(text)}
          />
          <Controls
            t={t}
            status={state.status}
            active={state.active}
            busy={busy}
            initializing={isInitializing(state)}
            speed={state.speed}
            listeningHealth={state.listeningHealth}
            onSkip={() => controller.skip()}
            canReplay={lastReplyText(state.messages) !== null}
            onReplay={() => controller.replay()}
            checkOpen={state.checkOpen}
            stars={state.stars}
            locale={state.language}
            onToggle={() => (state.active ? controller.end() : controller.start())}
            onSpeed={(speed) => controller.selectSpeed(speed)}
          />
          <Copyright t={t} settings={settings} />
        </footer>
      </div>
      {modalOpen && (
        <FeedbackModal
          t={t}
          locale={state.language}
          sending={state.feedback.sending}
          onDismiss={() => controller.dismissFeedback()}
          onSubmit={(input) => void controller.submitFeedback(input)}
        />
      )}
      <Announcer messages={state.messages} />
      <StarAnnouncement locale={state.language} stars={state.stars} />
    </>
  );
}
