/** The floor page: the answer read in a worker, every load drawn on one canvas (floor-page.ts). */
import { runFloor } from './floor-page';

runFloor({ draws: true });
