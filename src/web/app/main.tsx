import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';
import { createQueryClient } from '../data/query-client';
import { startBuildCheck } from '../data/served-build';
import { UpdateNotice } from '../components/update-notice';
import { App } from './app';
import { Providers } from './providers';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
startBuildCheck();
createRoot(root).render(
  <StrictMode>
    <Providers client={createQueryClient()}>
      <UpdateNotice />
      <App />
    </Providers>
  </StrictMode>,
);
