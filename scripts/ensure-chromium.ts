// Makes sure Debian's Chromium is there for the browser tests; never downloads a browser build.
// When it is missing and this machine can install packages (root with apt-get), installs Debian's
// `chromium` package; otherwise stops with a message that says how to get one.
import { execSync, spawnSync } from 'node:child_process';
import { chromiumFound, chromiumPath } from './chromium';

function canInstall(): boolean {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  return root && apt;
}

if (!chromiumFound()) {
  if (!canInstall()) {
    console.error(
      `No Chromium at ${chromiumPath()}. Install Debian's package (as root: apt-get update && apt-get install -y chromium)\n` +
        'or point CHROMIUM_PATH at a Chromium binary, then run the tests again.',
    );
    process.exit(1);
  }
  console.log(`No Chromium at ${chromiumPath()}: installing Debian's chromium package…`);
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
  if (!chromiumFound()) {
    console.error(`apt-get finished but there is still no Chromium at ${chromiumPath()}; set CHROMIUM_PATH.`);
    process.exit(1);
  }
}
