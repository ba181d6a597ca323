import { createRoot as createReactRoot } from 'react-dom/client';
import { createRoot } from './Root';

createReactRoot(document.getElementById('root')!).render(createRoot().element);
