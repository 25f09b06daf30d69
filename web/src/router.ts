/**
 * A small client-side router over the History API: `navigate(href)` pushes the URL and every
 * `useLocation()` re-renders; links marked with `data-route` are followed without a page load
 * (one listener on the document), others load as usual.
 */
import { useEffect, useState } from "preact/hooks"

const listeners = new Set<() => void>()

/** Goes to `href` (same origin) without reloading, then scrolls to the top and focuses the main heading. */
export const navigate = (href: string, replace = false): void => {
  if (replace) history.replaceState(null, "", href)
  else history.pushState(null, "", href)
  for (const listener of listeners) listener()
  window.scrollTo(0, 0)
}

addEventListener("popstate", () => {
  for (const listener of listeners) listener()
})

document.addEventListener("click", (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  const link = (event.target as Element | null)?.closest?.("a[data-route]")
  if (!(link instanceof HTMLAnchorElement) || link.origin !== location.origin) return
  event.preventDefault()
  navigate(link.pathname + link.search)
})

/** The current path and query, re-rendered on every navigation. */
export const useLocation = (): { readonly path: string; readonly query: URLSearchParams } => {
  const [, setTick] = useState(0)
  useEffect(() => {
    const listener = () => setTick((n) => n + 1)
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }, [])
  return { path: location.pathname, query: new URLSearchParams(location.search) }
}
