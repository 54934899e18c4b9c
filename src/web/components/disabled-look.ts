/**
 * How a disabled button looks: sunk and faint, not see-through. A button that turns see-through
 * (`opacity`) gets an effect node of its own in Chromium's paint, and each frame that turns it on or
 * off sorts every paint chunk of the page into layers again ("Layerize" in a trace), far more work
 * on a busy page than a colour change, which is repainted in place. A Refresh button is disabled
 * while its page fetches: twice per refresh.
 */
export const DISABLED_LOOK = 'disabled:cursor-not-allowed disabled:bg-panel-sunk disabled:text-ink-faint';
