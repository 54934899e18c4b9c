import { afterEach, describe, expect, it, vi } from 'vitest';
import { residentBytesOf, samplePeak } from './rss-sampler';

const status = (rss: string) => `Name:\tnode\nVmHWM:\t  900000 kB\nVmRSS:\t${rss}\nRssAnon:\t  1000 kB\n`;

describe('residentBytesOf', () => {
  it('reads VmRSS in bytes, not the peak (VmHWM) or a part of it', () => {
    expect(residentBytesOf(status('  123456 kB'))).toBe(123456 * 1024);
  });

  it('has no figure for a status without a readable VmRSS', () => {
    expect(residentBytesOf('')).toBeNaN();
    expect(residentBytesOf(status('   kB'))).toBeNaN();
    expect(residentBytesOf(status('  12 MB'))).toBeNaN();
    expect(residentBytesOf('Name:\tnode\nVmHWM:\t  900000 kB\n')).toBeNaN();
  });
});

describe('samplePeak', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the largest reading between start and stop, not the last one', () => {
    vi.useFakeTimers();
    const readings = [100, 300, 250, NaN, 120];
    const sampler = samplePeak(() => readings.shift() ?? 110, 200);
    vi.advanceTimersByTime(800);
    expect(readings).toEqual([]);
    expect(sampler.stop()).toBe(300);
  });

  it('reads once more at stop, and stops reading after it', () => {
    vi.useFakeTimers();
    const read = vi.fn().mockReturnValueOnce(100).mockReturnValueOnce(500);
    const sampler = samplePeak(read, 200);
    expect(sampler.stop()).toBe(500);
    vi.advanceTimersByTime(1000);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('has no figure when no reading was readable (the process had exited)', () => {
    vi.useFakeTimers();
    const sampler = samplePeak(() => NaN, 200);
    vi.advanceTimersByTime(600);
    expect(sampler.stop()).toBeNaN();
  });
});
