/** The first half of the honest-game soak (`npm run soak`; `SOAK_GAMES` sets the total, default 1,000). */
import { soak } from './honest.js'

const total = Number(process.env['SOAK_GAMES'] ?? '1000')
soak(0, Math.floor(total / 2))
