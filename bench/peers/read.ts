/** The read floor: the answer read in a worker and nothing drawn, on a bare map (floor-page.ts). */
import { runFloor } from './floor-page';

runFloor({ draws: false });
