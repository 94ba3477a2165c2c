/** `npm run feedback:export`: see infra/ops/feedback-export/cli.ts for the options. */
import { runExport } from './feedback-export/cli';

process.exitCode = await runExport(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
