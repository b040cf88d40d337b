/**
 * What one side learnt in one turn, in wire form: the input of everything a player may know of
 * the other's space. The message shapes are the transcript's; only their types are used here.
 */
import type { Aspects, Destruction, Flashcube, Results } from '../protocol/messages.js'

/** What one side learnt in one turn, in wire form. */
export interface TurnSummary {
  readonly turn: number
  readonly myAspects: Aspects
  /** The opponent's answers to my aspects, its destruction reports and claims. */
  readonly theirResults: Results
  readonly theirAspects: Aspects
  /** My own destruction reports, which the opponent answered with flashcube data. */
  readonly myReports: readonly Destruction[]
  /** My answers to the opponent's aspects (which of its strikes hit my ships), when known. */
  readonly myResults?: Results
  readonly theirFlashcube: Flashcube
}
