import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { notify } from '../lib/notify';
import { Toasts, carryNotice } from './Toasts';

afterEach(() => { vi.useRealTimers(); });

describe('Toasts', () => {
  it('a success replaces the error notices still showing (no stale "Validation Error" beside it)', () => {
    const view = render(<Toasts />);
    act(() => { notify('danger', 'Validation Error', 'Phone: Not a valid Phone Number'); });
    act(() => { notify('warning', 'Heads up', 'The branch is busy'); });
    expect(screen.getByText('Validation Error')).toBeTruthy();
    act(() => { notify('success', 'Saved', 'Your address is saved.'); });
    expect(screen.queryByText('Validation Error')).toBeNull();
    expect(screen.getByText('Saved')).toBeTruthy();
    expect(screen.getByText('Heads up')).toBeTruthy();
    view.unmount();
  });

  it('a success goes after 2.5 s and an error after 5 s', () => {
    vi.useFakeTimers();
    const view = render(<Toasts />);
    act(() => { notify('danger', 'Problem', 'Try again'); });
    act(() => { vi.advanceTimersByTime(1000); });
    act(() => { notify('primary', 'Note', 'Read this'); });
    act(() => { notify('success', 'Saved', 'Done'); });
    act(() => { vi.advanceTimersByTime(2499); });
    expect(screen.getByText('Saved')).toBeTruthy();
    act(() => { vi.advanceTimersByTime(1); });
    expect(screen.queryByText('Saved')).toBeNull();
    expect(screen.getByText('Note')).toBeTruthy();
    act(() => { vi.advanceTimersByTime(2500); });
    expect(screen.queryByText('Note')).toBeNull();
    view.unmount();
  });

  // Issue 28: the notice's timer outlived the component and called setState on it after the test's
  // window was torn down ("ReferenceError: window is not defined" from another file, minutes later).
  it('unmounted before its notices expire, it leaves no timer and the time passing brings no error', () => {
    vi.useFakeTimers();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const view = render(<Toasts />);
    act(() => { notify('danger', 'Validation Error', 'Phone: Not a valid Phone Number'); });
    act(() => { notify('success', 'Saved', 'Your address is saved.'); });
    expect(vi.getTimerCount()).toBe(1); // one timer, for the notice that goes next
    view.unmount();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('mounted again, it shows only what is notified from then on', () => {
    const first = render(<Toasts />);
    act(() => { notify('danger', 'Old', 'From before'); });
    first.unmount();
    const second = render(<Toasts />);
    expect(screen.queryByText('Old')).toBeNull();
    act(() => { notify('success', 'New', 'From now'); });
    expect(screen.getByText('New')).toBeTruthy();
    second.unmount();
  });

  it('a notice carried from a page the user was sent away from shows once when the toaster mounts (issue 23)', () => {
    carryNotice('warning', 'Not allowed', 'Brands is not open to your role (BRAND_MANAGER).');
    const first = render(<Toasts />);
    expect(screen.getAllByText('Brands is not open to your role (BRAND_MANAGER).')).toHaveLength(1);
    first.unmount();
    const second = render(<Toasts />);
    expect(screen.queryByText('Brands is not open to your role (BRAND_MANAGER).')).toBeNull();
    second.unmount();
  });
});
