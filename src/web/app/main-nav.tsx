import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { Link, useLocation, useRoute } from 'wouter';
import { configQuery } from '../data/load-queries';
import { useDismiss } from '../lib/use-dismiss';

// The count waits for the page's own pulls anyway, so its code (the inbox's model and queries) is
// not part of what the first page needs to draw.
const DocumentsNavBadge = lazy(() =>
  import('../features/documents/documents-nav-badge').then((m) => ({ default: m.DocumentsNavBadge })),
);

/** A page the main navigation links to. */
export interface NavLinkItem {
  href: string;
  label: string;
}

/** How many documents of the watched loads wait for review, beside the Documents link. */
function DocumentsBadge() {
  const config = useQuery(configQuery());
  return config.data ? (
    <Suspense fallback={null}>
      <DocumentsNavBadge config={config.data} />
    </Suspense>
  ) : null;
}

function NavLink({ href, label }: NavLinkItem) {
  const [active] = useRoute(href);
  return (
    <Link
      href={href}
      aria-current={active ? 'page' : undefined}
      className={`block rounded px-2 py-1 text-sm whitespace-nowrap ${active ? 'bg-white/15 text-white' : 'text-ink-faint hover:text-white'}`}
    >
      {label}
      {href === '/documents' && <DocumentsBadge />}
    </Link>
  );
}

/**
 * The links to the app's pages: in a row where they fit (from `md` up), behind a "Menu" button on a
 * phone, where a row of them ran past the screen's edge.
 */
export function MainNav({ links }: { links: readonly NavLinkItem[] }) {
  const [open, setOpen] = useState(false);
  const [location] = useLocation();
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  useDismiss(open, setOpen, { button, location });

  return (
    <nav aria-label="Main">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        className="rounded border border-white/30 px-2 py-1 text-sm text-white md:hidden"
      >
        Menu
      </button>
      <ul
        id={listId}
        className={`${open ? 'flex' : 'hidden'} absolute inset-x-0 top-full z-[2000] flex-col gap-1 bg-ink p-2 shadow-lg md:static md:flex md:flex-row md:bg-transparent md:p-0 md:shadow-none`}
      >
        {links.map((link) => (
          <li key={link.href}>
            <NavLink href={link.href} label={link.label} />
          </li>
        ))}
      </ul>
    </nav>
  );
}
