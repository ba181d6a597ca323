import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { notify } from '../lib/notify';
import { Toasts } from './Toasts';

describe('Toasts', () => {
  it('a success replaces the error notices still showing (no stale "Validation Error" beside it)', () => {
    render(<Toasts />);
    act(() => { notify('danger', 'Validation Error', 'Phone: Not a valid Phone Number'); });
    act(() => { notify('warning', 'Heads up', 'The branch is busy'); });
    expect(screen.getByText('Validation Error')).toBeTruthy();
    act(() => { notify('success', 'Saved', 'Your address is saved.'); });
    expect(screen.queryByText('Validation Error')).toBeNull();
    expect(screen.getByText('Saved')).toBeTruthy();
    expect(screen.getByText('Heads up')).toBeTruthy();
  });
});
