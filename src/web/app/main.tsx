import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';
import { createQueryClient } from '../data/query-client';
import { App } from './app';
import { Providers } from './providers';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <Providers client={createQueryClient()}>
      <App />
    </Providers>
  </StrictMode>,
);
