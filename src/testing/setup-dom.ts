import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  // The page keeps its view in the URL (the map, the selection, the board's filter and sort): each
  // test starts from a bare one, as a newly opened page does.
  window.history.replaceState(null, '', '/');
});
