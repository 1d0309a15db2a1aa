import { createRoot } from 'react-dom/client';
import { Callback } from './Callback.js';

createRoot(document.getElementById('root')!).render(<Callback />);
