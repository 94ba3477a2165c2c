import { useEffect, useRef } from 'react';

/** Escape does what the Skip control does, while Astro speaks (and no dialog has the keyboard). */
export function useSkipKey(enabled: boolean, skip: () => void): void {
  const latest = useRef(skip);
  useEffect(() => {
    latest.current = skip;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) latest.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
