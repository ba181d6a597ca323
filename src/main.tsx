import { startTransition } from 'react';
import { createRoot as createReactRoot } from 'react-dom/client';
import { createRoot } from './Root';

// The first render is a transition, so React renders it in slices that yield to the browser between
// them (a default-priority render is one task, however long): no long task at boot (issue 12, Lighthouse TBT).
startTransition(() => {
  createReactRoot(document.getElementById('root')!).render(createRoot().element);
});
