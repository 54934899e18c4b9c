import { DispatcherPage } from './routes/dispatcher-page';

export function App() {
  return (
    <div className="flex h-full flex-col">
      <header className="flex items-center gap-3 bg-ink px-4 py-2 text-white">
        <h1 className="text-lg font-semibold tracking-tight">Haulview</h1>
        <span className="text-sm text-ink-faint">Where every load is, and which need attention</span>
      </header>
      <main className="min-h-0 flex-1">
        <DispatcherPage />
      </main>
    </div>
  );
}
