/** Astro's mark: a ringed planet with a small star, drawn here (no external asset). */
export function Logo({ size = 48 }: { readonly size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false" className="logo">
      <defs>
        <radialGradient id="logo-planet" cx="38%" cy="32%" r="70%">
          <stop offset="0%" stopColor="#c4b5fd" />
          <stop offset="55%" stopColor="#7c6cf2" />
          <stop offset="100%" stopColor="#3b2f8f" />
        </radialGradient>
        <linearGradient id="logo-ring" x1="0" y1="0" x2="1" y2="0">
          <stop offset="0%" stopColor="#67e8f9" stopOpacity="0.2" />
          <stop offset="50%" stopColor="#67e8f9" />
          <stop offset="100%" stopColor="#67e8f9" stopOpacity="0.2" />
        </linearGradient>
      </defs>
      <path
        d="M8 40c-4 6 1 9 12 7 8-1.5 17-5 25-10"
        fill="none"
        stroke="url(#logo-ring)"
        strokeWidth="3"
        strokeLinecap="round"
      />
      <circle cx="30" cy="33" r="15" fill="url(#logo-planet)" />
      <path
        d="M45 37c10-6 14-12 10-15-3-2-10-1-18 2"
        fill="none"
        stroke="url(#logo-ring)"
        strokeWidth="3"
        strokeLinecap="round"
      />
      <path d="M50 8l1.6 4.4L56 14l-4.4 1.6L50 20l-1.6-4.4L44 14l4.4-1.6z" fill="#fde68a" />
      <circle cx="14" cy="14" r="1.6" fill="#e0e7ff" />
    </svg>
  );
}
