/** One measured figure of `npm run bench`. */
export interface Figure {
  figure: string;
  value: number;
  unit: string;
  goal: string;
  pass: boolean;
}
