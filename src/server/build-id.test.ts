import { describe, expect, it } from 'vitest';
import { buildIdOf, withBuildMeta } from './build-id';

const index = (entry: string) =>
  `<!doctype html><html><head><script type="module" src="/assets/${entry}"></script></head><body></body></html>`;

describe('the build id', () => {
  it('is the same for the same pages, whoever builds them (several instances of one release agree)', () => {
    expect(buildIdOf([index('index-3f2a9c1d.js'), 'share'])).toBe(
      buildIdOf([index('index-3f2a9c1d.js'), 'share']),
    );
  });

  it('changes when an entry chunk does, in either page', () => {
    const before = buildIdOf([index('index-3f2a9c1d.js'), index('share-0a1b2c3d.js')]);
    expect(buildIdOf([index('index-77aa01b2.js'), index('share-0a1b2c3d.js')])).not.toBe(before);
    expect(buildIdOf([index('index-3f2a9c1d.js'), index('share-99aa88bb.js')])).not.toBe(before);
    // The pages are kept apart: moving text from one to the other is another build.
    expect(buildIdOf(['ab', 'c'])).not.toBe(buildIdOf(['a', 'bc']));
  });
});

describe('the page with the build id', () => {
  it('carries it in a meta tag in the head', () => {
    const page = withBuildMeta(index('index-3f2a9c1d.js'), 'abc123');
    expect(page).toContain('<meta name="haulview-build" content="abc123"></head>');
    expect(page.replace('<meta name="haulview-build" content="abc123">', '')).toBe(
      index('index-3f2a9c1d.js'),
    );
  });

  it('carries it after the doctype of a page without a head element written out', () => {
    expect(withBuildMeta('<!doctype html><title>Haulview</title>', 'x1')).toBe(
      '<!doctype html><meta name="haulview-build" content="x1"><title>Haulview</title>',
    );
    expect(withBuildMeta('<title>Haulview</title>', 'x1')).toBe(
      '<meta name="haulview-build" content="x1"><title>Haulview</title>',
    );
  });
});
