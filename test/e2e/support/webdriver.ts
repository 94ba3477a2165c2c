import { request as httpRequest } from 'node:http';

/**
 * The few W3C WebDriver commands the WebKit tests use, spoken over HTTP (no client library: see
 * docs/testing.md, "WebKit"). Every command has a deadline, so a browser that stops answering fails the
 * test instead of hanging it. Scripts run in the page as functions: they are serialised with
 * `Function.prototype.toString`, so keep them self-contained (no imports, no closures).
 */

/** A page function and its JSON arguments (element references included). */
// The arguments are whatever the page function takes: checked at the call, not here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type PageFunction<T> = (...args: any[]) => T | Promise<T>;

/** The W3C identifier of an element reference in a command's JSON. */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export interface ElementReference {
  readonly [ELEMENT]: string;
}

/** A WebDriver error answer, with its W3C error code (e.g. `no such element`, `javascript error`). */
export class WebDriverError extends Error {
  constructor(
    readonly command: string,
    readonly code: string,
    message: string,
  ) {
    super(`${command}: ${code}: ${message}`);
    this.name = 'WebDriverError';
  }
}

/** How long one command may take; scripts that wait say how long they wait, and get that plus this. */
const COMMAND_MS = 30_000;

async function command<T>(
  base: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
  deadlineMs = COMMAND_MS,
): Promise<T> {
  const payload = body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(body);
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    // A connection per command: WebKitWebDriver's server does not keep connections alive reliably, and a
    // command sent on one it has dropped was never answered.
    const request = httpRequest(
      `${base}${path}`,
      {
        method,
        agent: false,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          ...(payload === undefined ? {} : { 'Content-Length': Buffer.byteLength(payload) }),
        },
        timeout: deadlineMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () =>
      request.destroy(new Error(`${method} ${path}: no answer within ${deadlineMs} ms`)),
    );
    request.on('error', reject);
    request.end(payload);
  });
  const answer = JSON.parse(text) as { value: T & { error?: string; message?: string } };
  if (status < 200 || status > 299) {
    throw new WebDriverError(
      `${method} ${path}`,
      answer.value.error ?? String(status),
      answer.value.message ?? '',
    );
  }
  return answer.value;
}

/** The driver's readiness (GET /status). */
export async function driverReady(base: string, deadlineMs: number): Promise<boolean> {
  try {
    const status = await command<{ ready?: boolean }>(base, 'GET', '/status', undefined, deadlineMs);
    return status.ready === true;
  } catch {
    return false;
  }
}

/** One browser session of a WebDriver server. */
export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  static async create(
    base: string,
    capabilities: Record<string, unknown>,
    deadlineMs: number,
  ): Promise<WebDriverSession> {
    const { sessionId } = await command<{ sessionId: string }>(
      base,
      'POST',
      '/session',
      { capabilities: { alwaysMatch: capabilities } },
      deadlineMs,
    );
    const session = new WebDriverSession(base, sessionId);
    // Scripts that wait for a condition bound themselves (see waitFor); this is the driver's backstop.
    await session.send('POST', '/timeouts', { script: 120_000, pageLoad: 60_000, implicit: 0 });
    return session;
  }

  private send<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, deadlineMs?: number) {
    return command<T>(this.base, method, `/session/${this.id}${path}`, body, deadlineMs);
  }

  /** Loads a page and waits for its load event. */
  navigate(url: string): Promise<void> {
    return this.send('POST', '/url', { url }, 60_000);
  }

  setWindowRect(rect: { width: number; height: number }): Promise<void> {
    return this.send('POST', '/window/rect', rect);
  }

  /**
   * Runs `fn(...args)` in the current page (or frame) and answers what it returns (or resolves to); a
   * page that throws or rejects fails with its message.
   */
  async evaluate<T>(fn: PageFunction<T>, ...args: unknown[]): Promise<T> {
    // The outcome travels as an array: WebKit answers an element inside an object as null.
    const [failed, value] = await this.send<[0, T] | [1, string]>('POST', '/execute/async', {
      script: `const done = arguments[arguments.length - 1];
        Promise.resolve()
          .then(() => (${fn.toString()}).apply(null, Array.prototype.slice.call(arguments, 0, -1)))
          .then((value) => done([0, value]), (error) => done([1, error instanceof Error ? error.message + ' ' + error.stack : String(error)]));`,
      args,
    });
    if (failed) throw new Error(`in the page: ${String(value)}`);
    return value as T;
  }

  /** Runs a script (a function body, as it is) in the page: e.g. a bundle the page's own policy would refuse. */
  async run(script: string): Promise<void> {
    await this.send('POST', '/execute/sync', { script, args: [] }, 60_000);
  }

  /**
   * Waits in the page until `fn(...args)` answers something truthy (checked every 50 ms), and answers
   * it; after `timeoutMs` fails with `describe`'s account of what the page showed instead.
   */
  async waitFor<T>(
    what: string,
    timeoutMs: number,
    fn: PageFunction<T>,
    ...args: unknown[]
  ): Promise<NonNullable<T>> {
    const [late, value] = await this.send<[0, NonNullable<T>] | [1]>(
      'POST',
      '/execute/async',
      {
        script: `const done = arguments[arguments.length - 1];
          const args = Array.prototype.slice.call(arguments, 0, -1);
          const check = ${fn.toString()};
          const until = Date.now() + ${timeoutMs};
          const poll = () => {
            let value;
            try { value = check.apply(null, args); } catch (error) { value = undefined; }
            if (value) return done([0, value]);
            if (Date.now() > until) return done([1]);
            setTimeout(poll, 50);
          };
          poll();`,
        args,
      },
      timeoutMs + COMMAND_MS,
    );
    if (late) throw new Error(`${what}: not within ${timeoutMs} ms`);
    return value as NonNullable<T>;
  }

  /** A real click (a user gesture to the page: speech and audio may start from it). */
  click(element: ElementReference): Promise<void> {
    return this.send('POST', `/element/${element[ELEMENT]}/click`);
  }

  /** Clears a field and types into it, key by key. */
  async type(element: ElementReference, text: string): Promise<void> {
    await this.send('POST', `/element/${element[ELEMENT]}/clear`);
    await this.send('POST', `/element/${element[ELEMENT]}/value`, { text });
  }

  /** Moves into a frame of the current page (an element reference), or back to the top (null). */
  switchToFrame(frame: ElementReference | null): Promise<void> {
    return this.send('POST', '/frame', { id: frame });
  }

  /** Ends the session (the browser closes). */
  close(): Promise<void> {
    return this.send('DELETE', '', undefined, 15_000);
  }
}
