/**
 * A stacked bar chart as inline SVG (no chart library): one bar per day, each bar split into its
 * series (bottom first), with a `<title>` and `<desc>` the SVG is labelled by (`role="img"`), and
 * the same figures as a table for screen readers and keyboard users (in a `<details>`).
 * Values are non-negative integers; the y axis runs from 0 to the largest day's total.
 */

/** One series: its name (the legend and the table's column) and its colour (a CSS class). */
export interface Series {
  readonly name: string
  readonly className: string
}

export interface BarChartProps {
  /** Unique on the page: the ids of the title and description derive from it. */
  readonly id: string
  readonly title: string
  /** A sentence or two a screen reader says instead of the bars (totals, the busiest day). */
  readonly description: string
  readonly series: ReadonlyArray<Series>
  /** One row per bar: its label (a day, `YYYY-MM-DD`) and one value per series, in `series` order. */
  readonly rows: ReadonlyArray<{ readonly label: string; readonly values: ReadonlyArray<number> }>
  /** Extra columns of the table only (not drawn): name and one text per row. */
  readonly extra?: ReadonlyArray<{ readonly name: string; readonly values: ReadonlyArray<string> }>
}

const Width = 640
const Height = 200
const Left = 36
const Bottom = 22
const Top = 8

/** The bar chart and its table (see the module docs). */
export const BarChart = ({ id, title, description, series, rows, extra = [] }: BarChartProps) => {
  const totals = rows.map((r) => r.values.reduce((a, b) => a + b, 0))
  const max = Math.max(1, ...totals)
  const plotHeight = Height - Bottom - Top
  const step = (Width - Left) / Math.max(1, rows.length)
  const barWidth = Math.max(2, step * 0.7)
  const y = (v: number) => Top + plotHeight - (v / max) * plotHeight
  const ticks = max <= 4 ? Array.from({ length: max + 1 }, (_, i) => i) : [0, Math.round(max / 2), max]
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${Width} ${Height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} preserveAspectRatio="xMidYMid meet">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{description}</desc>
        {ticks.map((t) => (
          <g class="tick">
            <line x1={Left} x2={Width} y1={y(t)} y2={y(t)} />
            <text x={Left - 4} y={y(t) + 4} text-anchor="end">{t}</text>
          </g>
        ))}
        {rows.map((row, i) => {
          let base = 0
          const x = Left + i * step + (step - barWidth) / 2
          return (
            <g>
              {row.values.map((v, s) => {
                const top = y(base + v)
                const height = y(base) - top
                base += v
                return v > 0 ? <rect class={series[s]!.className} x={x} y={top} width={barWidth} height={height} /> : null
              })}
              {i % Math.ceil(rows.length / 6) === 0 ? <text class="label" x={x + barWidth / 2} y={Height - 6} text-anchor="middle">{row.label.slice(5)}</text> : null}
            </g>
          )
        })}
      </svg>
      <figcaption>
        {series.map((s) => <span class="legend"><span class={`swatch ${s.className}`} aria-hidden="true" /> {s.name}</span>)}
      </figcaption>
      <details>
        <summary>{title}: the figures as a table</summary>
        <table>
          <caption>{title}</caption>
          <thead>
            <tr><th scope="col">Day</th>{series.map((s) => <th scope="col">{s.name}</th>)}{extra.map((e) => <th scope="col">{e.name}</th>)}</tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr><th scope="row">{row.label}</th>{row.values.map((v) => <td>{v}</td>)}{extra.map((e) => <td>{e.values[i]}</td>)}</tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
