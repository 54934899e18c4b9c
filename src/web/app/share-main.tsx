import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../styles.css';
import { createQueryClient } from '../data/query-client';
import { startBuildCheck } from '../data/served-build';
import { UpdateNotice } from '../components/update-notice';
import { SharePage, tokenOfPath } from '../features/share-view/share-page';
import { Providers } from './providers';

// The customer's page is an entry of its own: none of the dashboard's code comes with it.
const root = document.getElementById('root');
if (!root) throw new Error('share.html has no #root');
startBuildCheck();
createRoot(root).render(
  <StrictMode>
    <Providers client={createQueryClient()}>
      <UpdateNotice />
      <SharePage token={tokenOfPath(window.location.pathname)} />
    </Providers>
  </StrictMode>,
);
