/**
 * The offline tutor's knowledge: data files imported statically, so esbuild bundles them into the Lambda
 * (no file reads at run time), and validated once, on first use.
 */
import type { Locale } from '../../contract/languages';
import { parseKnowledge } from './knowledge-schema';
import arSA from './knowledge/ar-SA.json';
import deDE from './knowledge/de-DE.json';
import enUS from './knowledge/en-US.json';
import esES from './knowledge/es-ES.json';
import frFR from './knowledge/fr-FR.json';
import heIL from './knowledge/he-IL.json';
import itIT from './knowledge/it-IT.json';
import jaJP from './knowledge/ja-JP.json';
import ptBR from './knowledge/pt-BR.json';
import topics from './knowledge/topics.json';
import zhCN from './knowledge/zh-CN.json';

export const RAW_TOPIC_INDEX: unknown = topics;

export const RAW_LOCALE_FILES: Readonly<Record<Locale, unknown>> = {
  'en-US': enUS,
  'es-ES': esES,
  'pt-BR': ptBR,
  'fr-FR': frFR,
  'de-DE': deDE,
  'it-IT': itIT,
  'ar-SA': arSA,
  'zh-CN': zhCN,
  'ja-JP': jaJP,
  'he-IL': heIL,
};

export type Knowledge = ReturnType<typeof parseKnowledge>;

let loaded: Knowledge | undefined;

/** The validated knowledge base; throws (naming the file and field) if a data file is broken. */
export function loadKnowledge(): Knowledge {
  loaded ??= parseKnowledge(RAW_TOPIC_INDEX, RAW_LOCALE_FILES);
  return loaded;
}
