// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useSkipKey } from '#web/conversation/use-skip-key';

// Escape does what Skip does, only while Astro speaks (docs/behaviour.md §2.13), and never when a dialog
// already used the key.

const press = (key: string, prevented = false) => {
  const event = new KeyboardEvent('keydown', { key, cancelable: true });
  if (prevented) event.preventDefault();
  window.dispatchEvent(event);
};

describe('the Escape key', () => {
  it('skips while enabled, and not for other keys or a key a dialog already handled', () => {
    const skip = vi.fn();
    renderHook(() => useSkipKey(true, skip));

    press('Enter');
    press('Escape', true);
    expect(skip).not.toHaveBeenCalled();
    press('Escape');
    expect(skip).toHaveBeenCalledTimes(1);
  });

  it('does nothing while disabled, and stops listening when disabled or unmounted', () => {
    const skip = vi.fn();
    const { rerender, unmount } = renderHook(({ enabled }) => useSkipKey(enabled, skip), {
      initialProps: { enabled: false },
    });
    press('Escape');
    expect(skip).not.toHaveBeenCalled();

    rerender({ enabled: true });
    press('Escape');
    rerender({ enabled: false });
    press('Escape');
    expect(skip).toHaveBeenCalledTimes(1);

    rerender({ enabled: true });
    unmount();
    press('Escape');
    expect(skip).toHaveBeenCalledTimes(1);
  });

  it('calls the latest skip it was given, without listening again', () => {
    const first = vi.fn();
    const second = vi.fn();
    const added = vi.spyOn(window, 'addEventListener');
    const { rerender } = renderHook(({ skip }) => useSkipKey(true, skip), { initialProps: { skip: first } });
    rerender({ skip: second });

    press('Escape');

    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
    expect(added.mock.calls.filter(([type]) => type === 'keydown')).toHaveLength(1);
    added.mockRestore();
  });
});
