/**
 * Ctrl-C for `npm start`: the first stops the server gracefully (requests in flight get a few seconds,
 * then their connections are cut); a second exits at once, whatever is still running.
 */
export interface StopHooks {
  readonly close: () => Promise<void>;
  readonly exit: (code: number) => void;
  readonly say: (line: string) => void;
}

export function stopOnSignal(hooks: StopHooks): (signal: NodeJS.Signals) => void {
  let stopping = false;
  return (signal) => {
    if (stopping) {
      hooks.say(`\n${signal} again: exiting at once.`);
      hooks.exit(130);
      return;
    }
    stopping = true;
    hooks.say(`\n${signal}: stopping (press Ctrl-C again to exit at once)...`);
    hooks.close().then(
      () => hooks.exit(0),
      (error: unknown) => {
        hooks.say(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        hooks.exit(1);
      },
    );
  };
}
