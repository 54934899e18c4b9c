// The offline basemap's North American data, made at build time by vite.config.ts.
declare module 'virtual:basemap/north-america-coarse' {
  const data: import('./basemap-north-america').NorthAmericaExtras;
  export default data;
}
declare module 'virtual:basemap/north-america-fine' {
  const data: Pick<import('./basemap-north-america').NorthAmericaExtras, 'lakes'>;
  export default data;
}
