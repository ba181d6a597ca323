import { act, cleanup, render, screen } from '@testing-library/react';
import { createRoot } from '../../src/Root';


/** Renders the real app in jsdom against a real server's gateway. */
export function renderApp(server: { url: string }, path = '/') {
  window.history.replaceState(null, '', path);
  const { element } = createRoot({ uri: `${server.url}/graphql` });
  return render(element);
}

/** Client-side navigation, as a link click would do it. */
export function navigateTo(path: string) {
  act(() => {
    window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
}

export function resetBrowser() {
  cleanup();
  localStorage.clear();
  // A fresh browser: the tab's storage too (the checkout keeps the guest's details there).
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
}

export { screen };
