/**
 * The record prompt with a live clock: inquirer's text input, its behaviour kept (validation on
 * enter, an editable default, a transformer shown as the player types, a refused line kept to mend),
 * with the time left shown after the message and redrawn every second. Written on
 * `@inquirer/core` because `@inquirer/input` draws its message once per keypress, so a clock in it
 * would stand still while the player thinks.
 */
import {
  createPrompt,
  isBackspaceKey,
  isEnterKey,
  isTabKey,
  makeTheme,
  useEffect,
  useKeypress,
  usePrefix,
  useState,
} from '@inquirer/core'

export interface TimedInputConfig {
  readonly message: string
  /** The clock's text now (`4:12 left`), or undefined for none; read again every `tickMs`. */
  readonly clock: () => string | undefined
  readonly default?: string
  readonly validate?: (v: string) => true | string
  readonly transformer?: (v: string, o: { isFinal: boolean }) => string
  /** How often the clock is redrawn; a second unless a test says otherwise. */
  readonly tickMs?: number
}

export const timedInput = createPrompt<string, TimedInputConfig>((config, done) => {
  const theme = makeTheme({})
  const [status, setStatus] = useState<'idle' | 'loading' | 'done'>('idle')
  const [defaultValue, setDefaultValue] = useState(config.default ?? '')
  const [errorMsg, setError] = useState<string | undefined>(undefined)
  const [value, setValue] = useState('')
  // Each tick changes the state, so the prompt is drawn again with the clock as it is then.
  const [, setTick] = useState(0)
  const prefix = usePrefix({ status, theme })
  useEffect(() => {
    let n = 0
    const timer = setInterval(() => {
      setTick(++n)
    }, config.tickMs ?? 1000)
    return () => {
      clearInterval(timer)
    }
  }, [])
  useEffect((rl) => {
    // An editable default: what the player had typed when the prompt was last withdrawn.
    if (defaultValue !== '') {
      rl.write(defaultValue)
      setValue(defaultValue)
    }
  }, [])
  useKeypress((key, rl) => {
    if (status !== 'idle') return
    if (isEnterKey(key)) {
      const answer = value || defaultValue
      const verdict = config.validate?.(answer) ?? true
      if (verdict === true) {
        setValue(answer)
        setStatus('done')
        done(answer)
      } else {
        // A refused line stays in the box to be mended (a long record with one typo is not typed
        // again); its error, shown under it, names what was wrong.
        // (On the line event readline emptied its line: it is written back, as @inquirer/input does.)
        rl.write(value)
        setError(verdict)
      }
    } else if (isBackspaceKey(key) && value === '') setDefaultValue('')
    else if (isTabKey(key) && value === '') {
      setDefaultValue('')
      rl.clearLine(0)
      rl.write(defaultValue)
      setValue(defaultValue)
    } else {
      setValue(rl.line)
      setError(undefined)
    }
  })
  const clock = status === 'done' ? undefined : config.clock()
  const message = theme.style.message(clock === undefined ? config.message : `${config.message} (${clock})`, status)
  const shown =
    config.transformer !== undefined
      ? config.transformer(value, { isFinal: status === 'done' })
      : status === 'done'
        ? theme.style.answer(value)
        : value
  return [
    [prefix, message, shown].filter((v) => v !== '').join(' '),
    errorMsg === undefined ? '' : theme.style.error(errorMsg),
  ]
})
