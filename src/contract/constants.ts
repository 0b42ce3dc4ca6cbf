/** The specification's business constants (section 9) and our input limits, in one place. */

// Data reads (PRODUCT.md: GET only, network errors / 5xx / 429).
export const DATA_RETRY_ATTEMPTS = 3;
export const DATA_RETRY_BASE_DELAY_MS = 1000;

// Premium carousel fetch.
export const PREMIUM_RETRY_MAX_ATTEMPTS = 3;
export const PREMIUM_RETRY_INITIAL_DELAY_MS = 1000;
export const PREMIUM_RETRY_MULTIPLIER = 1.5;
export const PREMIUM_RETRY_MAX_DELAY_MS = 10000;
export const PREMIUM_RETRYABLE_MESSAGES = ['timeout', 'network error', 'rate limit', 'service unavailable'] as const;
export const FETCH_TIMEOUT_MS = 5000;
export const DOWNLOAD_TIMEOUT_MS = 8000;
/** How long a signed download link is valid. A download that started keeps going; only new requests (a resumed range) need a fresh link. */
export const DOWNLOAD_LINK_TTL_SECONDS = 10 * 60;

// Carousel.
export const CAROUSEL_DEBOUNCE_MS = 100;
export const CAROUSEL_SWIPE_THRESHOLD_PX = 50;
export const CAROUSEL_TOUCH_MOVE_THRESHOLD_PX = 5;
export const CAROUSEL_DRAG_BOUND_PX = 200;
export const CAROUSEL_VISIBLE_OFFSET = 2;

// Announcements.
export const BELL_ANNOUNCEMENT_LIMIT = 5;

// Toasts.
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5000;

// Login screen.
export const ACCESS_DENIED_THROTTLE_MS = 2000;
export const LOGIN_SHAKE_MS = 400;

// Dashboard / lists.
export const DASHBOARD_TOP_RESOURCES = 5;
export const DASHBOARD_DAYS = 30;
export const SKELETON_COUNT = 6;
export const PAGE_SIZE = 24;
export const PAGE_SIZE_MAX = 100;

// Stat counters.
export const COUNTER_DURATION_MS = 2000;
export const COUNTER_FPS = 60;
export const COUNTER_VISIBILITY_THRESHOLD = 0.3;

// Navigation.
export const SORT_OPTIONS = ['popular', 'newest', 'downloads'] as const;
export const SCROLL_HIDE_TIMER_MS = 150;
export const FOOTER_PROXIMITY_PX = 100;
export const CROSS_PAGE_SCROLL_DELAY_MS = 100;

// Local storage keys.
export const STORAGE_ADMIN = 'admin';
export const STORAGE_THEME = 'vite-ui-theme';
export const STORAGE_DISMISSED = 'dismissed-announcements';

// Cursor.
export const CURSOR_TRAIL_COUNT = 20;
export const CURSOR_SIZE_PX = 26;
export const CURSOR_IDLE_DELAY_MS = 150;
export const CURSOR_FOLLOWERS_WHEN_IDLE = 6;
export const CURSOR_SCALE_STEP = 0.05;
export const CURSOR_FOLLOW_EASING = 0.35;
export const CURSOR_WOBBLE_SPEED = 0.05;
/**
 * How long the trail wobbles once the pointer rests (slowing over the last second); then it stays still
 * around the pointer and stops drawing until the next move (decision 458: moving content stops within
 * 5 s, WCAG 2.2.2).
 */
export const CURSOR_WOBBLE_MAX_MS = 4000;

// Input limits (PRODUCT.md).
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5000;
export const URL_MAX = 2048;
export const ANNOUNCEMENT_MAX = 500;
export const TAG_MAX = 40;
export const TAGS_MAX = 20;
export const SEARCH_MAX = 200;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

// Sessions and login throttling (server).
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** SESSION_MAX_DAYS's default: a session ends this long after sign-in, however active. */
export const SESSION_MAX_DAYS_DEFAULT = 30;
/** Sign-in attempts per window: per (address, username), per username from browsers without its device cookie, per device cookie. */
export const LOGIN_LIMIT = 10;
/** Sign-in attempts per window from one address, whatever the usernames. */
export const LOGIN_IP_LIMIT = 30;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** How long a device cookie (set at sign-in, docs/decisions/312) exempts its browser from the username lock. */
export const DEVICE_COOKIE_MAX_MS = 365 * 24 * 60 * 60 * 1000;

export const FOOTER_YEAR_DEFAULT = 2024;
