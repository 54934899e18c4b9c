// `npm ci` refuses a lock file that names an optional dependency without recording it. This registry
// serves some packages' platform builds (other OSes) only for older versions, so a dependency bump can
// produce such a lock on this machine and turn CI red. This check catches it before CI does.
import { readFileSync } from 'node:fs';

interface LockPackage {
  optionalDependencies?: Record<string, string>;
}
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, LockPackage>;
};
const missing: string[] = [];
for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const name of Object.keys(pkg.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`])
      missing.push(`${name} (wanted by ${path || 'the root'})`);
  }
}
if (missing.length > 0) {
  console.error(
    `package-lock.json lacks optional dependencies, so \`npm ci\` would fail:\n  ${missing.join('\n  ')}`,
  );
  console.error(
    'Pin the parent to a version whose platform packages this registry has (see README, "Dependencies").',
  );
  process.exit(1);
}
console.log('package-lock.json records every optional dependency.');
