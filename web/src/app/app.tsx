import type { Locale } from '#contract/languages';
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
import { languageStrings, type LanguageStrings } from '../i18n/language-strings';
import { useUiStrings } from '../i18n/use-ui-strings';
import { settings } from '../lib/env';

export interface AppProps {
  readonly deps?: () => ConversationDeps;
  /** The language the page opens in (docs/behaviour.md §2.24); English when not given. */
  readonly language?: Locale;
  /** Each language's UI strings; the app's own unless a test gives its own. */
  readonly strings?: LanguageStrings;
}

/** The one screen (docs/behaviour.md §2): header, transcript, footer, and the feedback modal over them. */
export function App({ deps, language, strings = languageStrings }: AppProps) {
  const { state, controller } = useConversation(deps, language);
  const ui = useUiStrings(state.language, strings);
  const t = ui.messages;
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
          onLanguage={(chosen) => {
            // Fetched from the change itself, if the menu did not already (docs/behaviour.md §2.24).
            void strings.load(chosen);
            controller.selectLanguage(chosen);
          }}
          onLanguageMenu={() => strings.prefetch()}
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
            starWords={ui.stars}
            locale={ui.locale}
            onToggle={() => (state.active ? controller.end() : controller.start())}
            onSpeed={(speed) => controller.selectSpeed(speed)}
          />
          <Copyright t={t} settings={settings} />
        </footer>
      </div>
      {modalOpen && (
        <FeedbackModal
          t={t}
          locale={ui.locale}
          sending={state.feedback.sending}
          onDismiss={() => controller.dismissFeedback()}
          onSubmit={(input) => void controller.submitFeedback(input)}
        />
      )}
      <Announcer messages={state.messages} />
      <StarAnnouncement words={ui.stars} locale={ui.locale} stars={state.stars} />
    </>
  );
}
