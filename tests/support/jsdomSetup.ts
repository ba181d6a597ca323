// jsdom lacks these; the app calls them on navigation. (Files that run on a real server ask for
// `@vitest-environment node`, where there is no window.)
if (typeof window !== 'undefined') window.scrollTo = (() => {}) as typeof window.scrollTo;
import { configure } from '@testing-library/react';

// The first render of a lazy chunk is transformed on demand, which can take seconds on a cold run.
configure({ asyncUtilTimeout: 15_000 });
