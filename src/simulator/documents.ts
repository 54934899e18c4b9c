import type { LoadPlan } from './fleet';

const escape = (s: string) => s.replace(/[<>&"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A picture of an uploaded document: a page for BOL/POD, a photo-like scene for pictures. */
export function documentSvg(plan: LoadPlan, n: number): string {
  const stop = n <= 2 ? plan.stops[0] : plan.stops[plan.stops.length - 1];
  const place = stop ? `${stop.city.name}, ${stop.city.state}` : '';
  const title = n === 1 ? 'BILL OF LADING' : n === 3 ? 'PROOF OF DELIVERY' : 'PHOTO';
  // 2 and 4 are the pictures of pickup and delivery; 5 on, the long track's pictures on the road.
  if (n === 2 || n >= 4) {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
<rect width="800" height="600" fill="#6b7f99"/><rect y="380" width="800" height="220" fill="#4a4a48"/>
<rect x="140" y="150" width="520" height="300" fill="#e8e6e1" stroke="#333" stroke-width="4"/>
<line x1="400" y1="150" x2="400" y2="450" stroke="#333" stroke-width="4"/>
<rect x="385" y="280" width="30" height="40" fill="#c0392b"/>
<text x="400" y="520" font-family="sans-serif" font-size="26" fill="#fff" text-anchor="middle">Trailer doors, seal ${escape(String(plan.externalId))}</text>
<text x="400" y="560" font-family="sans-serif" font-size="20" fill="#ddd" text-anchor="middle">${escape(place)}</text></svg>`;
  }
  const lines = Array.from(
    { length: 9 },
    (_, i) => `<rect x="80" y="${250 + i * 40}" width="${440 - (i % 3) * 90}" height="12" fill="#bbb"/>`,
  ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="800" viewBox="0 0 600 800">
<rect width="600" height="800" fill="#fbfaf7"/><rect x="40" y="40" width="520" height="720" fill="none" stroke="#222" stroke-width="3"/>
<text x="300" y="110" font-family="serif" font-size="36" text-anchor="middle" fill="#111">${title}</text>
<text x="80" y="170" font-family="monospace" font-size="20" fill="#222">Load ${escape(plan.loadNumber)} / ${plan.externalId}</text>
<text x="80" y="205" font-family="monospace" font-size="18" fill="#444">${escape(place)}</text>${lines}
<path d="M360 690 q30 -40 60 0 t60 0" stroke="#1a3a8a" stroke-width="3" fill="none"/></svg>`;
}
