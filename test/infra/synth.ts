import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AstroStack } from '#infra/astro-stack';
import { readAstroContext } from '#infra/context';

export interface Synthesized {
  readonly app: App;
  readonly stack: AstroStack;
  readonly template: Template;
  readonly outdir: string;
}

/** A stand-in for the Vite build: an index page and one hashed asset. */
function fakeWebBuild(): string {
  const root = mkdtempSync(join(tmpdir(), 'astro-web-'));
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, '.vite'));
  writeFileSync(join(root, '.vite', 'manifest.json'), '{}');
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><script type="module" src="/assets/app-1a2b3c.js"></script>',
  );
  writeFileSync(join(root, 'assets', 'app-1a2b3c.js'), 'console.log("astro")');
  // The build's hidden source maps: they must never reach the public bucket.
  writeFileSync(join(root, 'assets', 'app-1a2b3c.js.map'), '{"sources":["../src/app.ts"]}');
  return root;
}

/**
 * Synthesizes the stack as infra/app.ts does (context validated). Without cdk-nag by default, so that a
 * nag finding fails only the tests that ask cdk-nag (they run its rules on the app themselves) and every
 * other assertion still runs and says what it says; `nag: true` adds it as infra/app.ts does, as a
 * validation plugin whose unacknowledged findings make synth throw. `bundle: false` skips esbuild for
 * variants whose assertions do not concern the function code. `cfnValidation: true` runs CDK's built-in
 * CloudFormation validation as `cdk synth` does; it is off otherwise, since it costs more than a second of
 * CPU per synth and one test (astro-stack.test.ts) reads its report for the stack.
 */
export function synthAstro(
  context: Record<string, unknown> = {},
  options: { bundle?: boolean; nag?: boolean; cfnValidation?: boolean } = {},
): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'astro-cdk-'));
  const app = new App({
    outdir,
    builtinCloudFormationValidation: options.cfnValidation === true,
    context: { ...context, ...(options.bundle === false ? { 'aws:cdk:bundling-stacks': [] } : {}) },
  });
  const config = readAstroContext((key) => app.node.tryGetContext(key));
  const stack = new AstroStack(app, 'Astro', {
    config,
    webRoot: fakeWebBuild(),
    env: { region: config.region },
  });
  if (options.nag === true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
  return { app, stack, template: Template.fromStack(stack), outdir };
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Evaluates the few intrinsics CDK uses to spell URLs (Ref, Fn::Join, Fn::Split, Fn::Select) with given
 * values for Refs, so a test can read the origin path CloudFront will really use.
 */
export function evaluate(value: Json, refs: Record<string, string>): Json {
  if (Array.isArray(value)) return value.map((item) => evaluate(item, refs));
  if (value === null || typeof value !== 'object') return value;
  const [key] = Object.keys(value);
  const arg = value[key as string] as Json;
  switch (key) {
    case 'Ref': {
      const resolved = refs[arg as string];
      if (resolved === undefined) throw new Error(`No value for Ref ${String(arg)}`);
      return resolved;
    }
    case 'Fn::Join': {
      const [separator, parts] = arg as [string, Json[]];
      return (evaluate(parts, refs) as string[]).join(separator);
    }
    case 'Fn::Split': {
      const [separator, text] = arg as [string, Json];
      return (evaluate(text, refs) as string).split(separator);
    }
    case 'Fn::Select': {
      const [index, list] = arg as [number, Json];
      return (evaluate(list, refs) as Json[])[index] as Json;
    }
    default:
      throw new Error(`Cannot evaluate ${String(key)}`);
  }
}
