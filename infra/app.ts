/**
 * The CDK app: validates the context, makes sure the web build exists, and synthesizes the Astro stack
 * with the cdk-nag AwsSolutions rules, whose unacknowledged findings fail synth.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AstroStack } from './astro-stack';
import { ContextError, readAstroContext } from './context';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const webRoot = `${repoRoot}dist/web`;

function ensureWebBuild(): void {
  if (existsSync(`${webRoot}/index.html`)) return;
  // A fresh clone has no build yet; build it so `cdk synth` works on its own. Output goes to stderr,
  // keeping stdout for the CDK CLI.
  console.error('dist/web is missing: building the web app first (npm run build)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) throw new Error('The web build failed; run `npm run build` to see why.');
}

const app = new App();
try {
  const config = readAstroContext((key) => app.node.tryGetContext(key));
  ensureWebBuild();
  new AstroStack(app, 'Astro', {
    config,
    webRoot,
    // The region is explicit, the account is not: synth needs no credentials and no lookups.
    env: { region: config.region },
    description: 'Astro: a voice tutor for astronomy learners',
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
} catch (error) {
  if (!(error instanceof ContextError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
