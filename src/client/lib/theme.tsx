import * as React from 'react';
import { STORAGE_THEME } from '@contract/constants';
import { storage } from './storage';

export type Theme = 'light' | 'dark' | 'system';

interface ThemeState {
  theme: Theme;
  /** What is shown now: system resolved through prefers-color-scheme. */
  resolved: 'light' | 'dark';
  setTheme(theme: Theme): void;
}

const ThemeContext = React.createContext<ThemeState | null>(null);

function readTheme(): Theme {
  const t = storage.get(STORAGE_THEME);
  return t === 'light' || t === 'dark' || t === 'system' ? t : 'system';
}

const systemDark = () => typeof window !== 'undefined' && window.matchMedia('(prefers-color-scheme: dark)').matches;

/** public/theme-init.js applies the class before first paint; this keeps it in sync afterwards. */
export function ThemeProvider({ children }: { children: React.ReactNode }) {
  const [theme, setThemeState] = React.useState<Theme>(readTheme);
  const [sysDark, setSysDark] = React.useState(systemDark);

  React.useEffect(() => {
    const mq = window.matchMedia('(prefers-color-scheme: dark)');
    const onChange = () => setSysDark(mq.matches);
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);

  const resolved = theme === 'system' ? (sysDark ? 'dark' : 'light') : theme;

  React.useLayoutEffect(() => {
    const root = document.documentElement;
    // Usually theme-init.js has set both already: touching <html> anyway restyles the whole page.
    const other = resolved === 'dark' ? 'light' : 'dark';
    if (root.classList.contains(other)) root.classList.remove(other);
    if (!root.classList.contains(resolved)) root.classList.add(resolved);
    if (root.style.colorScheme !== resolved) root.style.colorScheme = resolved;
  }, [resolved]);

  const value = React.useMemo<ThemeState>(
    () => ({
      theme,
      resolved,
      setTheme(t) {
        storage.set(STORAGE_THEME, t);
        setThemeState(t);
      },
    }),
    [theme, resolved],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const ctx = React.useContext(ThemeContext);
  if (!ctx) throw new Error('useTheme must be used inside ThemeProvider');
  return ctx;
}
