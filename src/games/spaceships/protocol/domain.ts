/** SPEC §3.3: Spaceships' domain-separation tags (protocol version 3). */
export const DOMAIN = {
  gameId: 'spaceships/3/game-id',
  salt: 'spaceships/3/salt',
  occupancy: 'spaceships/3/occupancy',
  detail: 'spaceships/3/detail',
  record: 'spaceships/3/record',
  envelope: 'spaceships/3/envelope',
  envelopeHash: 'spaceships/3/envelope-hash',
} as const
