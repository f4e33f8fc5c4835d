"""Write tests/data/long_sessions_heldout9.json: a ninth held-out set of developer chat, written by hand.

One person's chat with a coding assistant over nine months (October 2025 to June 2026): a frontend engineer on
the design-system team of an online home-goods shop in Lyon. Its component library moves from webpack to Vite,
Jest to Vitest, yarn to pnpm, styled-components to vanilla-extract and Chromatic to Playwright screenshots; an
accessibility audit under the French RGAA, product-page speed, a v2 release whose date slips, a new manager and
new team mates, a move from Villeurbanne to Annecy, a cat, glasses, pottery, lake swimming, a trip to Japan, a
father's retirement and a sister's PhD defence. Nothing was tuned on it (tests/data/junk_facts/README.md,
fresh16). Each question's haystack is its supporting sessions and four others, in date order, so the set serves
as a recall set too.

    .venv/bin/python benchmarks/make_long_sessions_heldout9.py
"""

from __future__ import annotations

from pathlib import Path

from long_sessions_kit import A, Question, Sessions, U, questions, write

TARGET = Path(__file__).resolve().parents[1] / "tests" / "data" / "long_sessions_heldout9.json"
ASKED_ON = "2026-07-01 08:45"

S = Sessions()

S.add(
    "intro-01", "2025-10-06 09:20",
    U("""hi! quick context so you know who you're talking to: I'm a frontend engineer on the design system team at
Maisonnette, we sell furniture and home goods online, HQ is in Lyon (Part-Dieu). I live in Villeurbanne, 15 min
by bike. The design system is called Tissage, it's a React 18 component library that the shop, the back office
and the mobile web all consume.

Current stack, for the record: React 18, styled-components 5, Storybook 7, webpack 5, Jest 29, yarn 1 workspaces.
We're 3 on the team: me, Julien (my manager, also writes code) and Sophie (designer)."""),
    A("""Thanks, that's useful context. A few things I'll keep in mind when we work on Tissage:

- **Three consumers** (shop, back office, mobile web) means any breaking change needs a migration path, ideally a
  codemod, and a deprecation window rather than a hard cut.
- **styled-components 5 + React 18** works, but runtime CSS-in-JS has a cost on every render and doesn't play well
  with streaming SSR or React Server Components if the shop ever goes that way.
- **webpack 5 + yarn 1** is a very common setup; both are the parts people usually modernise first, because the gain
  (build time, install time, stricter dependency graph) is large and mostly invisible to consumers.

What would you like to start with?"""),
    U("build times are killing us. storybook cold start is ~2 min and the library build is 90s+. I want to try vite. is it sane to do the library build AND storybook in one go?"),
    A("""It's sane, but I'd do it in two steps you can ship separately:

1. **Storybook first.** Storybook 7 has a first-class Vite builder (`@storybook/react-vite`). Switching the builder
   is mostly config: replace `@storybook/react-webpack5` with `@storybook/react-vite`, move any webpack aliases into
   `viteFinal`, and check your loaders (SVG, MDX). It gives you the quickest visible win, since cold start is what
   everyone feels daily.
2. **Library build second.** Use Vite's library mode (`build.lib`) with Rollup options to externalise `react`,
   `react-dom` and `styled-components`, and emit ESM + CJS. Keep the webpack build around behind a script until the
   consumers have installed a version built by Vite and nothing broke.

Two things tend to bite during this migration:

- CommonJS-only dependencies imported with `require(...)` in your source. Vite serves ESM in dev, so those fail at
  runtime with `require is not defined`.
- `process.env.NODE_ENV` checks: Vite uses `import.meta.env.MODE`; you can `define` `process.env.NODE_ENV` to keep
  old code working.

Want me to sketch a `vite.config.ts` for the library?"""),
    U("not yet, I'll start next week when the sprint's done. thanks"),
)

S.add(
    "tokens-01", "2025-10-08 14:05",
    U("""our tokens pipeline is style dictionary 3, figma tokens studio exports json to a repo, then SD builds css vars + a ts
file. we have 3 brands now (Maisonnette, Maisonnette Pro for B2B, and Atelier which is the premium line) and the
build output is weird for Atelier:

```
$ yarn tokens:build
style-dictionary build --config sd.config.js

css
✔︎ build/css/maisonnette.css
✔︎ build/css/pro.css

js
✔︎ build/ts/tokens.ts

While building atelier.css, token collisions detected (12):
 Collision detected at: color.brand.primary! Original value: #1F3A5F, New value: #2B2B2B
 Collision detected at: color.brand.secondary! Original value: #E8DCC8, New value: #C9A66B
 ... 10 more
✔︎ build/css/atelier.css
```"""),
    A("""Those collisions mean that when Style Dictionary builds Atelier, it's reading **both** the base brand file and the
Atelier file as sources, and the second one overrides the first. The output is probably right (Atelier's values
win), but you're relying on file order, which is fragile.

The usual fix is to split `source` and `include`:

```js
// sd.config.js
module.exports = brands.map((brand) => ({
  include: ['tokens/core/**/*.json'],          // shared primitives, may be overridden
  source: [`tokens/brands/${brand}/**/*.json`],  // brand values, win silently
  platforms: { css: { transformGroup: 'css', buildPath: 'build/css/', files: [{ destination: `${brand}.css`, format: 'css/variables' }] } },
}));
```

Tokens in `include` can be overridden by `source` without a collision warning, because that's the intended
layering. Then build one config per brand in a loop instead of one config that lists all brand files."""),
    U("ah that's it, we had everything in source. fixed, no more collisions. btw the icon set is in the same repo, 240 icons as svg, sprite built by svgo + a tiny script"),
    A("""Nice. With 240 icons a single sprite is fine; if the shop only uses a few dozen on most pages, you could later
split the sprite per area or inline the critical ones, but measure first: a gzipped sprite of 240 simple icons is
usually 25-40 KB."""),
)

S.add(
    "vite-01", "2025-10-14 10:40",
    U("ok starting the vite migration today. storybook part first like you said. this is what I get on `storybook dev`:"),
    U("""```
$ yarn storybook
@storybook/cli v7.6.17

info => Starting manager..
info => Starting preview..
vite v5.0.12 building for development...
✘ [ERROR] Uncaught ReferenceError: require is not defined
    at packages/tissage/src/icons/index.ts:3:15
    at packages/tissage/src/Button/Button.tsx:2:1

    1 | import { iconNames } from './names';
    2 |
    3 | const sprite = require('./sprite.svg');
      |                ^
```"""),
    A("""That's the classic one. `require('./sprite.svg')` was handled by webpack's `file-loader`/asset module; in Vite's
dev server the code runs as native ESM in the browser, where `require` doesn't exist.

Change it to an ESM import with Vite's URL suffix:

```ts
import spriteUrl from './sprite.svg?url';
```

and use `spriteUrl` where you used `sprite`. For TypeScript, add `/// <reference types="vite/client" />` to a
`vite-env.d.ts` so `?url` imports are typed.

If you want the library build to keep working with webpack meanwhile, `new URL('./sprite.svg', import.meta.url)`
also works in webpack 5 and Vite both. I'd go with that one during the transition: one code path for both bundlers."""),
    U("used the new URL version, works in both 👍 storybook cold start went from 1:58 to 14s on my machine lol"),
    A("That's the typical order of magnitude. Next: the library build in library mode. Shall I draft the config?"),
    U("yes pls, ESM + CJS, externals react, react-dom, styled-components"),
    A("""```ts
// packages/tissage/vite.config.ts
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import dts from 'vite-plugin-dts';
import { resolve } from 'node:path';

export default defineConfig({
  plugins: [react(), dts({ include: ['src'], exclude: ['**/*.stories.tsx', '**/*.test.tsx'] })],
  build: {
    lib: {
      entry: resolve(__dirname, 'src/index.ts'),
      formats: ['es', 'cjs'],
      fileName: (format) => (format === 'es' ? 'index.mjs' : 'index.cjs'),
    },
    rollupOptions: {
      external: ['react', 'react-dom', 'react/jsx-runtime', 'styled-components'],
    },
    sourcemap: true,
  },
});
```

Notes:
- `react/jsx-runtime` must be external too, otherwise a copy of it ends up in your bundle.
- Point `exports` in `package.json` at both files (`import` -> `index.mjs`, `require` -> `index.cjs`) and keep
  `types` at the generated `index.d.ts`.
- Run a consumer (the back office is probably the least risky) against a local pack (`yarn pack`) before
  publishing."""),
)

S.add(
    "pottery-01", "2025-10-20 21:10",
    U("off-topic: I started a pottery class tonight! wednesday evenings at a little studio in the Croix-Rousse, 10 sessions. my first bowl collapsed twice 😅 any tips for centering on the wheel?"),
    A("""Congrats on starting! Centering is the part everyone fights with at first. A few things that help:

1. **Brace your elbows.** Rest your left elbow on your left thigh (or the splash pan) so your arm doesn't move with
   the clay. Your strength should come from your body, not your wrists.
2. **Wet, but not soaked.** Enough water to slide; too much and the clay gets soft and collapses, which is often
   what happens to a first bowl.
3. **Fast wheel, slow hands.** Keep the wheel fast while centering and move your hands slowly in and out.
4. **Cone up, cone down** two or three times before opening. It aligns the clay particles and finds lumps.
5. **Open with the wheel slower**, and leave about 1 cm at the bottom (check with a needle tool).

And the first few collapse for nearly everyone, so don't read too much into it."""),
    U("elbow thing makes sense, I was holding it with my arms in the air like an idiot. thx"),
)

S.add(
    "vite-02", "2025-10-27 17:55",
    U("""Update: the vite migration is done and merged 🎉 library build numbers:

```
$ time yarn workspace @maisonnette/tissage build   # old, webpack
...
real    1m34.211s

$ time yarn workspace @maisonnette/tissage build   # new, vite
vite v5.0.12 building for production...
✓ 1184 modules transformed.
dist/index.mjs   412.08 kB │ gzip: 96.31 kB │ map: 1,201.55 kB
dist/index.cjs   418.77 kB │ gzip: 97.02 kB │ map: 1,203.10 kB
[vite:dts] Declaration files built in 6211ms.
✓ built in 14.87s

real    0m21.402s
```

back office and shop both run on 3.4.0 which is the first vite-built version. next I want to get rid of jest, tests are slow too. worth going to vitest right away?"""),
    A("""Congrats, 94s to 21s is a great result, and most of the remaining time is the `.d.ts` generation (6.2s), which
you could move to a separate `tsc --emitDeclarationOnly` step run in parallel if it ever matters.

On Vitest: yes, now is a good time, for three reasons:

- **One transform pipeline.** Tests would use the same Vite config (aliases, `new URL` assets, plugins), so you stop
  maintaining `moduleNameMapper` and `babel-jest` config that duplicates it.
- **Jest-compatible API.** `describe/it/expect`, `vi.fn()` instead of `jest.fn()`, `vi.mock()` instead of
  `jest.mock()`. A search-and-replace handles most of it; `jest.requireActual` becomes `await vi.importActual`.
- **Speed.** Usually 2-4x on a suite like yours, more in watch mode.

Things to check: snapshot files (compatible, but the header line differs, so they'll all be rewritten once),
`jsdom` vs `happy-dom` (stick with jsdom first to keep behaviour the same), and any test relying on Jest's fake
timers' legacy mode."""),
    U("ok do it next week then"),
)

S.add(
    "jest-01", "2025-11-03 11:30",
    U("""moved the suite to vitest on a branch. most things pass, a few don't:

```
$ yarn vitest run

 RUN  v1.2.2 /home/ines/dev/tissage/packages/tissage

 ✓ src/Button/Button.test.tsx  (18 tests) 212ms
 ✓ src/Checkbox/Checkbox.test.tsx  (11 tests) 140ms
 ❯ src/DatePicker/DatePicker.test.tsx  (23 tests | 3 failed) 1204ms
   × DatePicker > opens on Enter
   × DatePicker > closes after selecting a day
   × DatePicker > respects minDate across DST change
 ✓ src/Modal/Modal.test.tsx  (16 tests) 388ms
 ...

 Test Files  1 failed | 57 passed (58)
      Tests  3 failed | 409 passed (412)
   Start at  11:24:09
   Duration  19.84s (transform 3.12s, setup 4.01s, collect 9.87s, tests 6.40s, environment 11.2s, prepare 3.9s)
```

jest took 71s for the same 412 tests. the DatePicker ones all use fake timers"""),
    A("""19.8s against 71s, good. The three DatePicker failures are almost certainly fake timers. Two differences matter:

1. `vi.useFakeTimers()` does **not** fake `Date` unless you ask it to in older setups, and it doesn't auto-advance.
   If a test did `jest.useFakeTimers('modern')` and relied on `Date.now()` moving, use:

   ```ts
   vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'Date'] });
   vi.setSystemTime(new Date('2025-03-30T00:30:00+01:00'));
   ```
2. With user-event, fake timers need `advanceTimers`:

   ```ts
   const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
   ```
   Without it, `await user.keyboard('{Enter}')` waits on a real timeout that never fires, and the open/close tests
   time out or see stale state.

The DST test likely also depends on the process time zone. Pin it in the Vitest config with
`process.env.TZ = 'Europe/Paris'` in a `globalSetup` file, so it doesn't pass on your machine and fail in CI."""),
    U("the userEvent advanceTimers thing fixed 2 of them, TZ fixed the DST one. all green now"),
    A("Great. Before merging, run the suite three times in a row in CI to catch order-dependent tests: Vitest runs files in parallel workers by default, which Jest did too, but the file order differs."),
)

S.add(
    "cat-01", "2025-11-09 16:20",
    U("we adopted a cat yesterday!! from the SPA shelter in Lyon, a 2 year old tabby, we named her Praline. my partner Mathis wanted to call her Biscotte, I won. she hides under the sofa all day. normal?"),
    A("""Congratulations to you both, and to Praline! Yes, hiding is completely normal for the first days, often up to two
weeks for an adult shelter cat. Things that help:

- **One small room first** (a bedroom or office) with food, water, litter and a hiding spot, rather than the whole
  flat. A big space is overwhelming.
- **Let her come to you.** Sit on the floor, read or work nearby, don't pull her out from under the sofa.
- **Routine.** Feed at the same times; cats settle faster when the day is predictable.
- **Play in the evening** with a wand toy, once she's out a bit: it builds trust fast.
- Check she's eating, drinking and using the litter within the first 24-48 hours. If she doesn't eat for more than a
  day or two, call a vet, since cats can get liver problems from not eating.

Also worth booking a first vet visit within a couple of weeks to check vaccines and the microchip registration."""),
    U("she ate tonight and came out for a bit. the small room idea is good, she can have my office. RIP my focus"),
)

S.add(
    "a11y-01", "2025-11-12 10:05",
    U("""Quick note: the RGAA audit came back. we got an external agency to audit the shop against RGAA 4.1 (the french
accessibility standard, basically WCAG 2.1 AA + some extras) because we're above the threshold for the 2025 law.
Result: 62% compliance. The report flags a lot in our components:

- Modal: focus not trapped, focus not returned to the trigger on close
- Tabs: arrow keys don't work
- Select/Combobox: not announced properly with NVDA
- Toast: not announced at all
- colour contrast of the "muted" text token: 3.9:1

where would you start"""),
    A("""62% is a common first score; the good news is that a design system fixes things once for every page.

I'd order them by how many pages they touch and how hard the fix is:

1. **Contrast of the muted token** (one token change, every page). 3.9:1 fails 1.4.3 for body text (needs 4.5:1).
   Darken it until it passes on your lightest background; it's a design decision, so loop Sophie in with a couple of
   candidate values.
2. **Modal focus management.** Trap focus inside while open, move focus to the first focusable element (or the
   dialog title with `tabindex="-1"`), restore focus to the trigger on close, close on Escape. If you can drop old
   browsers, the native `<dialog>` element with `showModal()` gives you the trap and `inert` background for free.
3. **Toast announcements.** A single live region (`role="status"`, `aria-live="polite"`) mounted once at app start;
   toasts write text into it. Live regions added to the DOM at the same moment as their content often aren't read,
   which is likely why nothing is announced now.
4. **Tabs keyboard support.** Roving tabindex: only the selected tab has `tabindex="0"`, arrows move between tabs,
   Home/End go to first/last.
5. **Combobox**: the hardest; it deserves its own session with the ARIA Authoring Practices pattern and testing with
   NVDA and VoiceOver.

For each, add a test with `@testing-library/user-event` that drives the keyboard, and run `axe` in Storybook
(`@storybook/addon-a11y`) so regressions show up in review."""),
    U("contrast first then. Sophie proposed #5E5A55 instead of #8A847D. what's the ratio on white and on our beige bg #F7F3EE?"),
    A("""Computing relative luminance for each:

- `#5E5A55`: L ≈ 0.101
- `#FFFFFF`: L = 1.0
- `#F7F3EE`: L ≈ 0.900

Ratios:
- on white: (1.0 + 0.05) / (0.101 + 0.05) ≈ **6.95:1**
- on `#F7F3EE`: (0.900 + 0.05) / (0.101 + 0.05) ≈ **6.29:1**

Both pass AA for normal text (4.5:1) comfortably, and AAA for large text. The old `#8A847D` (L ≈ 0.227) gives about
3.79:1 on white and 3.43:1 on the beige, so the audit's 3.9 was probably measured on white with rounding."""),
    U("perfect, shipping it"),
)

S.add(
    "perf-01", "2025-11-20 13:45",
    U("""perf time. product page LCP is bad, black friday is next week and marketing is nervous. lighthouse mobile from CI:

```
{
  "url": "https://www.maisonnette.fr/p/canape-3-places-lin-lave-sable",
  "categories": { "performance": { "score": 0.54 } },
  "audits": {
    "largest-contentful-paint": { "numericValue": 3812.4, "displayValue": "3.8 s" },
    "total-blocking-time": { "numericValue": 488.0, "displayValue": "490 ms" },
    "cumulative-layout-shift": { "numericValue": 0.02 },
    "largest-contentful-paint-element": { "details": { "items": [{ "node": { "selector": "div.Gallery__Slide > img" } }] } }
  }
}
```

LCP element is the first gallery image. it's lazy loaded by our Gallery component"""),
    A("""That's the main problem: the LCP image is lazy-loaded, so the browser waits for layout and the
IntersectionObserver before even requesting it. For the first slide:

1. **Don't lazy-load it.** `loading="eager"` (or no `loading` attribute) on the first slide only; keep `lazy` for the
   others.
2. **`fetchpriority="high"`** on that first image, so it jumps ahead of scripts and other images.
3. **Preload it** if the URL is known server-side: `<link rel="preload" as="image" imagesrcset="..." imagesizes="...">`
   in the head, matching the `srcset`/`sizes` of the `<img>` exactly, otherwise the browser downloads twice.
4. **Right-size it.** Check the `srcset` gives a ~800px wide candidate for mobile; a 2000px JPEG on a phone is a
   common cause of a slow LCP even when it's requested early.

For the Gallery component, I'd add a `priority` prop (like Next's Image) that sets eager + fetchpriority on slide 0,
so the shop decides per page.

The 490 ms TBT is separate: probably hydration plus third-party tags. Worth a look after Black Friday, since the
freeze limits what you can ship."""),
    U("freeze is from nov 24 to dec 2 yeah. I'll get the priority prop in before. do I need the preload if fetchpriority is set?"),
    A("""Usually not much. `fetchpriority="high"` on an `<img>` that's in the initial HTML already gets it requested early
by the preload scanner. Preload helps when the image isn't in the HTML (rendered client-side, or a CSS background).
Since your shop server-renders the gallery, start with eager + fetchpriority, measure, and only add the preload if
LCP's "resource load delay" is still large."""),
)

S.add(
    "chroma-01", "2025-12-01 09:50",
    U("""finance asked me about our Chromatic bill. we're on a plan that includes 35,000 snapshots a month and we used
61,200 in November because every PR snapshots all 3 brands x 2 viewports. overage is painful. what are the options?"""),
    A("""A few options, from cheapest to most work:

1. **TurboSnap** (Chromatic's own feature): only snapshot stories affected by the changed files, based on the Vite
   or webpack dependency graph. On a library your size it usually cuts snapshots by 60-80%. Needs `--only-changed`
   and a full git history in CI (`fetch-depth: 0`).
2. **Fewer modes per PR.** Snapshot all brands × viewports on `main` only, and one brand × one viewport on PRs.
3. **Skip drafts.** Don't run Chromatic on draft PRs or on PRs that only touch docs.
4. **Move off Chromatic**: run Storybook's test runner or Playwright with `toHaveScreenshot()` in your own CI and
   store baselines in the repo. Free per snapshot, but you own the flakiness (fonts, animations, anti-aliasing), the
   review UI and the baseline updates. It only pays off if CI runners are cheap for you.

I'd try 1 and 2 first: they keep the review workflow designers already use."""),
    U("turning on turbosnap + main-only full matrix. let's see december"),
)

S.add(
    "pnpm-01", "2025-12-04 15:30",
    U("yarn 1 -> pnpm. install works but the shop's build explodes:"),
    U("""```
$ pnpm --filter shop build
> next build

Failed to compile.

../../packages/tissage/dist/index.mjs
Module not found: Can't resolve 'polished' in '/home/ines/dev/monorepo/packages/tissage/dist'

Import trace for requested module:
../../packages/tissage/dist/index.mjs
./src/components/ProductCard.tsx
```

polished is used by tissage but it isn't in tissage's package.json, yarn hoisted it"""),
    A("""Exactly: a phantom dependency. With yarn 1 everything was hoisted to the root `node_modules`, so Tissage could
import `polished` because some other package depended on it. pnpm's strict layout only lets a package see what it
declares.

Fix it properly by declaring it:

```
pnpm --filter @maisonnette/tissage add polished
```

To find the rest in one go rather than build by build:

```
pnpm dlx depcheck packages/tissage
```

or ESLint's `import/no-extraneous-dependencies` rule, which will keep it from coming back. If you hit many of them
in third-party packages (not your own), `public-hoist-pattern` in `.npmrc` is the escape hatch, but avoid it for your
own packages."""),
    U("depcheck found 4 more in tissage and 2 in the back office. fixed. install time in CI went from 2m40 to 48s with the pnpm store cache"),
    A("Nice gain. Commit the `pnpm-lock.yaml`, delete `yarn.lock`, and set `packageManager` in the root package.json with Corepack so everyone uses the same pnpm version."),
)

S.add(
    "glasses-01", "2025-12-10 18:40",
    U("I've had headaches at the end of most work days for like a month, mostly behind the eyes. I'm at the screen 9h a day. Anything I should do before I see someone?"),
    A("""I can't diagnose anything, but headaches behind the eyes after long screen days are very often eye strain,
sometimes an uncorrected vision problem. The right step is an eye exam (an ophthalmologist, or an optician for a
first check), and a doctor if the headaches are severe, sudden, or come with vision changes or nausea.

Meanwhile, things that commonly help:

- **20-20-20**: every 20 minutes, look at something about 6 metres away for 20 seconds.
- **Screen distance and height**: an arm's length away, top of the screen at or slightly below eye level.
- **Brightness**: match the screen to the room; a bright screen in a dim room is a classic cause.
- **Blink and hydrate**: people blink much less while focused, which dries the eyes.
- **Text size**: bump the zoom in your editor and browser; squinting at 12px code all day adds up."""),
    U("booked the ophthalmologist, but first slot is mid january. classic. will try the 20-20-20 thing"),
)

S.add(
    "mgr-01", "2025-12-15 12:10",
    U("""big news at work: Julien is leaving at the end of december, he's joining a startup in Paris. There's a reorg:
design system moves under the "web platform" group and our new manager will be Aïcha Benali, she's currently EM of
the checkout team. she starts with us on January 5. I like her but I'm a bit worried design system work gets
deprioritised under platform. how do I make the case for the roadmap in a first 1:1?"""),
    A("""That's a reasonable worry, and a first 1:1 is a good moment to frame things. A few suggestions:

**Bring numbers, not just a roadmap.** Platform groups tend to value things they can measure. You already have
several:
- build time 94s → 21s, Storybook cold start ~2 min → 14s, CI install 2m40 → 48s;
- the RGAA audit at 62%, and the legal exposure it implies; fixing it in Tissage fixes it for every page;
- LCP on the product page, which ties directly to conversion.

**Frame the design system as platform work.** It *is* infrastructure: three consumers, one source of truth for
accessibility, theming for three brands. Aïcha ran checkout, so tie it to what she knows: checkout forms are built
from Tissage inputs, and every a11y fix there lands in checkout too.

**Be concrete about the next quarter.** Two or three outcomes (e.g. "RGAA above 85% by the re-audit", "v2 with the
new styling engine shipped", "visual testing cost under budget") with rough dates.

**Ask what she needs from you.** How she likes to get updates, how decisions get made in platform, what she's been
told about the design system's priorities.

And ask Julien before he leaves to write down context that only he has (why decisions were made, open promises to
other teams)."""),
    U("good idea re Julien, he's the only one who knows why the Pro brand has its own spacing scale lol"),
)

S.add(
    "xmas-01", "2025-12-22 20:30",
    U("""I'm at my parents' in Clermont-Ferrand for christmas. my dad retires on January 9 after 38 years as a maths teacher
at the same lycée, and there's a party on the 10th. my sister and I are supposed to say a few words. can you help me
with a short speech? things to include: he taught 38 years at lycée Blaise-Pascal, he still corrects everyone's
maths at dinner, he's going to restore an old Citroën 2CV, and he taught me to code on a TI-82"""),
    A("""Here's a draft, about two minutes spoken; adjust the tone to your family:

---

Papa,

Thirty-eight years. Thirty-eight years of the same staircase at Blaise-Pascal, of chalk on your sleeves, of
students who arrived convinced they were "not a maths person" and left, somehow, able to solve a second-degree
equation in their sleep.

At home, retirement won't change much: you'll still correct the bill at the restaurant, and the percentages in the
news, and my sister's rounding, and mine.

What people here may not know is that you're the reason I write code for a living. The first program I ever wrote
was on your TI-82, a guessing game that told me "TROP GRAND" in capital letters. You showed me how a loop works on a
napkin. I still think about loops that way.

Now you'll finally have time for the 2CV, which has been waiting in the garage for longer than I've been alive.
We expect it to run by next summer. We'll be ready with the maths if it doesn't.

To Papa, and to whatever you decide to teach yourself next.

---

Want me to make it more funny, more emotional, or shorter? And does your sister want to split it into two parts?"""),
    U("this is lovely. can you make it a bit shorter and in french? my sister does her own part"),
    A("""Papa,

Trente-huit ans. Trente-huit ans du même escalier à Blaise-Pascal, de craie sur les manches, d'élèves arrivés
persuadés de « ne pas être matheux » et repartis capables de résoudre une équation du second degré les yeux fermés.

À la maison, la retraite ne changera pas grand-chose : tu corrigeras toujours l'addition au restaurant, les
pourcentages du journal télévisé, et nos arrondis.

Ce que tout le monde ici ne sait pas, c'est que c'est grâce à toi que je code aujourd'hui. Mon premier programme,
c'était sur ta TI-82 : un jeu qui me répondait « TROP GRAND ». Tu m'as expliqué les boucles sur une serviette en
papier.

Maintenant, la 2CV t'attend. On compte sur toi pour qu'elle roule l'été prochain.

À toi, Papa."""),
)

S.add(
    "ve-01", "2026-01-07 10:15",
    U("""first week with Aïcha, 1:1 went well. she agreed on the v2 plan. the big item of v2 is dropping styled-components
for vanilla-extract. reasons we wrote in the ADR: zero runtime (css is extracted at build time), typed themes that
map 1:1 to our tokens, and the shop team wants to try react server components next year, which styled-components
doesn't support well. v2 target release date: February 15.

v2 scope:
- vanilla-extract for all 38 components
- Storybook 7 -> 8
- drop Safari 14 support
- rename a few props (`variant="ghost"` -> `variant="tertiary"`, `isDisabled` -> `disabled`)

can you show what a Button looks like with vanilla-extract recipes, with our 3 brands as themes?"""),
    A("""Sure. The pattern is: one theme **contract** (the shape of your tokens), one theme class per brand that fills it,
and a `recipe` per component for variants.

```ts
// theme.css.ts
import { createThemeContract, createTheme } from '@vanilla-extract/css';

export const vars = createThemeContract({
  color: { primary: null, onPrimary: null, secondary: null, muted: null, surface: null },
  radius: { control: null },
  space: { 2: null, 3: null, 4: null },
});

export const maisonnette = createTheme(vars, {
  color: { primary: '#1F3A5F', onPrimary: '#FFFFFF', secondary: '#E8DCC8', muted: '#5E5A55', surface: '#F7F3EE' },
  radius: { control: '4px' },
  space: { 2: '8px', 3: '12px', 4: '16px' },
});
// pro and atelier the same way, generated from Style Dictionary output
```

```ts
// Button.css.ts
import { recipe } from '@vanilla-extract/recipes';
import { vars } from '../theme.css';

export const button = recipe({
  base: { borderRadius: vars.radius.control, paddingInline: vars.space[4], fontWeight: 600 },
  variants: {
    variant: {
      primary: { background: vars.color.primary, color: vars.color.onPrimary },
      secondary: { background: vars.color.secondary, color: vars.color.primary },
      tertiary: { background: 'transparent', color: vars.color.primary },
    },
    size: { sm: { height: 32 }, md: { height: 40 }, lg: { height: 48 } },
  },
  defaultVariants: { variant: 'primary', size: 'md' },
});
```

```tsx
// Button.tsx
import { button } from './Button.css';
export function Button({ variant, size, className, ...props }: ButtonProps) {
  return <button className={clsx(button({ variant, size }), className)} {...props} />;
}
```

The brand is then just a class on a root element (`<div className={atelier}>`). Two things to plan for: generate the
three `createTheme` calls from Style Dictionary so tokens stay the single source; and consumers need the
vanilla-extract bundler plugin only if they import `.css.ts` sources; if you ship compiled CSS in `dist`, they just
import one stylesheet."""),
    U("we'll ship compiled css. consumers shouldn't have to touch their bundler config"),
    A("Then in the library build add `@vanilla-extract/vite-plugin`, and make sure `dist/style.css` is listed in `exports` (e.g. `\"./style.css\": \"./dist/style.css\"`) and in `sideEffects`, otherwise a consumer's bundler may tree-shake the import away."),
)

S.add(
    "retire-01", "2026-01-11 22:05",
    U("the party for my dad was yesterday, the speech went great, he cried a bit (he'll deny it). my aunt asked for a copy. anyway. back to work tomorrow"),
    A("That's wonderful to hear, congratulations to him. Save the text somewhere safe; those are the things people ask for again years later. Good luck with the week!"),
)

S.add(
    "ve-02", "2026-01-13 16:25",
    U("""converting components, got this on the Tooltip

```
$ pnpm --filter @maisonnette/tissage build
vite v5.0.12 building for production...
✓ 311 modules transformed.
error during build:
Error: Styles for Tooltip.css.ts can only be created in .css.ts files. Did you mean to call `style` inside a
component? Styles defined in /packages/tissage/src/Tooltip/Tooltip.tsx
    at setFileScope (.../@vanilla-extract/css/fileScope/dist/vanilla-extract-css-fileScope.cjs.dev.js:21:11)
    at style (.../@vanilla-extract/css/dist/vanilla-extract-css.cjs.dev.js:402:3)
    at Tooltip (/packages/tissage/src/Tooltip/Tooltip.tsx:41:27)
```"""),
    A("""vanilla-extract needs every `style()` call to run at build time, in a `.css.ts` file. Line 41 of `Tooltip.tsx`
calls `style` inside the component, probably to compute the arrow's position from a prop.

Dynamic values go through CSS variables instead:

```ts
// Tooltip.css.ts
import { createVar, style } from '@vanilla-extract/css';
export const arrowOffset = createVar();
export const arrow = style({ left: arrowOffset });
```

```tsx
// Tooltip.tsx
import { assignInlineVars } from '@vanilla-extract/dynamic';
<span className={arrow} style={assignInlineVars({ [arrowOffset]: `${offset}px` })} />
```

The rule of thumb: anything known at build time goes in a `style` or `recipe`; anything known only at runtime is a
CSS variable set inline with `assignInlineVars`."""),
    U("ah makes sense. how many components have I done... 9 of 38. slow"),
    A("""The first ones are always the slowest since you're settling patterns. A suggestion: write down the 3-4 patterns
you've hit (recipe variants, dynamic values via `createVar`, responsive props via `sprinkles`, global resets) in a
short migration guide, so the next 29 go faster, and so someone else could pick some up."""),
)

S.add(
    "glasses-02", "2026-01-16 19:00",
    U("saw the ophthalmologist yesterday. I'm short-sighted, -1.25 in the left eye and -1.00 in the right, never noticed. picked frames today, glasses ready in a week. she said the headaches are very likely from that"),
    A("""Good that you went. A mild myopia like that often goes unnoticed for years because you adapt by squinting, and
the strain shows up as headaches late in the day. Expect a few days of adjusting when you get them (floors can look
slightly tilted, edges a bit sharp), that's normal. If the headaches don't ease after a couple of weeks with the
glasses, tell her."""),
)

S.add(
    "move-01", "2026-01-20 08:55",
    U("""life update: Mathis got the job at the engineering school in Annecy (he's a research engineer in materials),
starting in March, so we're moving to Annecy. I keep my job at Maisonnette: Aïcha agreed I work remote 3 days and
come to the Lyon office on Tuesdays and Thursdays. The move is planned for Saturday 7 March. we found a flat in the
old town, 2nd floor no lift 🙃

can you make me a moving checklist? things in france: EDF, internet, La Poste redirection, the CAF, changing address
on the carte grise"""),
    A("""Congratulations to Mathis! Here's a checklist ordered by when to do it:

**Now to 6 weeks before (by ~24 January)**
- Give notice on the Villeurbanne flat (check your lease: 1 month in "zone tendue" like Lyon/Villeurbanne, otherwise
  3 months; send it by registered letter or hand delivery).
- Book the movers or a van; for a 2nd floor with no lift, ask for a quote with "portage" included.
- **Internet**: order the new line now. Fibre installation in a building that has never had your operator can take
  2-4 weeks.

**4 weeks before**
- La Poste "réexpédition définitive" (6 or 12 months): set it to start on 7 March.
- EDF (or your supplier): schedule the end of contract in Villeurbanne and the start in Annecy on the same day; note
  both meter readings on the day.
- Home insurance: the new flat must be insured from the day you get the keys.

**The week of the move**
- État des lieux de sortie in Villeurbanne, état des lieux d'entrée in Annecy; photos of everything.
- A box for Praline's things: litter, food, bowls, her blanket, in the car with you, not in the van.

**Within a month after**
- Carte grise: change of address on the ANTS site (mandatory within one month, free).
- CAF, impôts (change of address on impots.gouv.fr), Sécurité sociale (ameli), bank, employer (for the payslip and
  the transport reimbursement).
- Register with a GP (médecin traitant) in Annecy.

Also: ask Maisonnette's HR about the train season ticket; employers reimburse at least 50% of a public transport
pass, and a Lyon-Annecy TER pass may count."""),
    U("oh good point about the fibre, ordering it today. and HR confirmed they reimburse 50% of the train pass"),
)

S.add(
    "ds-03", "2026-01-28 11:40",
    U("""bad news on v2. we're at 21 of 38 components in vanilla-extract and the data-heavy ones (DataTable, DatePicker,
Combobox) are the hardest. talked with Aïcha and Sophie: v2 moves from Feb 15 to March 31. new date is final, the
shop wants it for the spring collection relaunch in April. Storybook 8 upgrade is done at least.

I need to write the announcement to the three consumer teams. draft?"""),
    A("""Here's a draft you can post in your consumers' channel:

---

**Tissage v2: new release date, 31 March**

Hi all, a quick update on Tissage v2.

**What changes:** v2 is now planned for **Tuesday 31 March** (was 15 February). The move to vanilla-extract is
taking longer than we estimated for the complex components (DataTable, DatePicker, Combobox), and we'd rather ship
them properly than ship a v2 with two styling engines.

**What's already done:** 21 of 38 components are migrated and available behind the `@maisonnette/tissage@next` tag.
Storybook 8 is live.

**What this means for you:**
- Nothing to do before March. v1 keeps getting fixes until v2 ships and for three months after.
- The breaking changes are unchanged: `variant="ghost"` becomes `variant="tertiary"`, `isDisabled` becomes
  `disabled`, Safari 14 is no longer supported, and you import one stylesheet (`@maisonnette/tissage/style.css`).
- We'll ship a codemod for the prop renames.

**Why 31 March:** it leaves the shop two weeks before the spring relaunch.

Questions in this thread or in our office hours (Thursdays 14:00).

---

Adjust the office hours line if you don't have them; they help a lot during a major version."""),
    U("we don't have office hours but that's a good idea, adding them. posted"),
)

S.add(
    "a11y-02", "2026-02-03 14:20",
    U("combobox time. the audit said NVDA doesn't announce the options. our current markup is an input + a div list that we show/hide, options are divs with onClick. how should it be?"),
    A("""Divs with `onClick` have no role, so NVDA has nothing to announce: to a screen reader the list doesn't exist. The
pattern to follow is the ARIA Authoring Practices "Combobox with listbox popup". The key pieces:

**Markup**

```html
<label id="city-label" for="city">Ville</label>
<input id="city" type="text"
       role="combobox"
       aria-autocomplete="list"
       aria-expanded="true"
       aria-controls="city-listbox"
       aria-activedescendant="city-opt-2" />
<ul id="city-listbox" role="listbox" aria-labelledby="city-label">
  <li id="city-opt-1" role="option" aria-selected="false">Lyon</li>
  <li id="city-opt-2" role="option" aria-selected="true">Annecy</li>
</ul>
```

**Focus stays on the input, always.** This is the part most implementations get wrong. You don't move DOM focus into
the list; instead, `aria-activedescendant` on the input points to the id of the highlighted option. Screen readers
announce the option the attribute points to, while the user keeps typing in the input.

**Keyboard**
- Down / Up: open the list if closed, move the highlight (update `aria-activedescendant` and `aria-selected`).
- Enter: pick the highlighted option, close the list.
- Escape: close the list; a second Escape clears the input.
- Alt+Down: open without moving the highlight.
- Home / End: move the caret in the input (not the highlight), as in a normal text field.

**State**
- `aria-expanded` must reflect whether the list is shown; when closed, remove `aria-activedescendant`.
- If there are no results, keep the list closed and announce "Aucun résultat" through a polite live region (you
  already have one for toasts, reuse it).
- Announce the result count after typing, debounced (e.g. "5 résultats disponibles"), also through the live region.

**Mouse**
- Use `onMouseDown` with `preventDefault()` on options instead of `onClick`, otherwise the input blurs before the
  click lands and your blur handler closes the list first.

**Testing**
- Vitest + Testing Library: `getByRole('combobox')`, `getByRole('option', { name: 'Annecy' })`, assert
  `aria-activedescendant` after `{ArrowDown}`.
- Manual: NVDA + Firefox, NVDA + Chrome, VoiceOver + Safari on macOS and on iOS. VoiceOver on iOS handles
  `aria-activedescendant` less well; test it early.

If you'd rather not maintain this, libraries like Downshift or React Aria's `useComboBox` implement the pattern and
you'd only style it. With vanilla-extract that works well, since they're headless."""),
    U("we'll keep our own, the audit agency wants to see the pattern followed not a lib per se. the onMouseDown tip just fixed a bug we had for months btw"),
    A("That bug is so common it's nearly a rite of passage. Once the markup is in, I'd record a short NVDA screen recording for the agency with the keyboard flow, it makes the re-audit smoother."),
)

S.add(
    "swim-01", "2026-02-09 07:30",
    U("""new hobby thing: since we're moving to Annecy I signed up for the lake crossing on June 20, 2.5 km in open water
(in a wetsuit luckily). I joined a swim club in Lyon for the next month, then I'll find one there. Currently I can do
about 1 km crawl in the pool in 28 min, with breaks. is 2.5 km in 4 months realistic?"""),
    A("""Yes, very realistic. Going from 1 km to 2.5 km continuous in about 19 weeks is a normal progression, and a
wetsuit helps a lot (buoyancy, warmth, and your legs float higher).

A simple structure, three sessions a week:

- **One technique session**: drills (catch-up, single arm, 6-kick switch), and **bilateral breathing** (every 3
  strokes), which matters in open water where waves and sun come from one side.
- **One endurance session**: build the longest continuous swim by about 10% a week: 1,000 m, 1,100, 1,200... Slow is
  fine, no stopping is the goal.
- **One interval session**: e.g. 8 × 200 m with 20 s rest, to build pace.

From May, once the lake is above ~15 °C, add open-water swims: sighting every 6-9 strokes, swimming in a group,
getting used to the wetsuit. Never alone in open water.

Aim to swim 2.5 km continuous in the pool by late May; then race day is mostly about nerves and sighting."""),
    U("bilateral breathing is my nemesis. ok I'll try"),
)

S.add(
    "team-01", "2026-02-12 10:00",
    U("""FYI two people join the design system team on Monday: Yanis, a frontend dev coming from the checkout team
(Aïcha's old team), and Clara, a designer who'll work with Sophie on the tokens and Figma libraries. So we'll be
five. I'm supposed to onboard Yanis. He knows React well but never touched vanilla-extract or Storybook internals.
plan for his first two weeks?"""),
    A("""A two-week plan that gets him shipping on v2 quickly:

**Week 1: context and a first small PR**
- Day 1: setup (pnpm, Node version, Storybook, running the shop against a local Tissage via `pnpm link`), read the
  v2 ADR and your vanilla-extract migration guide.
- Day 2: pair with you on one component migration, him driving. Pick a simple one (Badge, Tag).
- Day 3-4: he migrates one component alone (Avatar or Chip), PR reviewed by you.
- Day 5: sit in on Thursday office hours: he'll hear what consumers struggle with.

**Week 2: a real piece of v2**
- Give him a medium component that his checkout background helps with: the form fields (TextField, Select).
- Have him write the Storybook interaction tests for it.
- End of week: he presents the component at office hours.

**Throughout**
- A 15-minute check-in each day for the first week, then every other day.
- A doc of "things that confused me", which becomes onboarding material for the next person.

Since he knows checkout's forms, he's also a good person to own the a11y fixes for inputs from the audit."""),
    U("love it. he gets TextField + Select"),
)

S.add(
    "chroma-02", "2026-02-18 16:45",
    U("""decision made: we're leaving Chromatic. even with turbosnap we averaged ~41k snapshots a month in dec+jan, and
finance won't approve the bigger plan. we're moving visual tests to Playwright `toHaveScreenshot()` against the
built Storybook, running in our own CI (github actions, ubuntu runners, in docker so fonts are identical). first run:

```
$ pnpm test:visual
Running 684 tests using 4 workers

  ✘  212 [chromium] › stories.spec.ts:18:5 › DatePicker › Default › atelier-mobile (1.4s)

    Error: Screenshot comparison failed:

      1893 pixels (ratio 0.01 of all image pixels) are different.

    Expected: __screenshots__/stories.spec.ts/DatePicker-Default-atelier-mobile.png
    Received: test-results/stories-DatePicker-Default-atelier-mobile/actual.png

  683 passed, 1 failed (4.6m)
```

the diff is the current date highlighted, obviously"""),
    A("""Right: any story that shows "today" will change every day. Fix it at the source, not with a threshold:

1. **Freeze the clock in the page**: Playwright has `page.clock`:

   ```ts
   await page.clock.setFixedTime(new Date('2026-01-15T10:00:00+01:00'));
   await page.goto(storyUrl);
   ```
2. **Or make the story take the date as an arg** (`today` prop defaulting to `new Date()`), and pass a fixed date in
   the story. That also makes the story useful for docs.

Other things to stabilise before trusting the suite:
- Disable animations and caret blinking: `await expect(page).toHaveScreenshot({ animations: 'disabled', caret: 'hide' })`.
- Wait for fonts: `await page.evaluate(() => document.fonts.ready)`.
- Keep `maxDiffPixelRatio` at 0 or very close; a loose threshold hides real regressions in small components.
- Update baselines only from the Docker image (`pnpm test:visual --update-snapshots` inside the container), never
  from a laptop.

For review, the HTML report's side-by-side diff view replaces Chromatic's UI reasonably well; upload it as a CI
artifact and link it in the PR."""),
    U("clock fix done, 684/684. we'll keep the html report as artifact"),
)

S.add(
    "turbo-01", "2026-02-24 11:15",
    U("""our monorepo CI is 14 min per PR, half of it rebuilding packages that didn't change. setting up Turborepo with
the remote cache. this is the dry run:

```
$ pnpm turbo run build test lint --dry=json | jq '.tasks[] | {taskId, cache: .cache.status}' | head -40
{ "taskId": "@maisonnette/tokens#build", "cache": "HIT" }
{ "taskId": "@maisonnette/icons#build", "cache": "HIT" }
{ "taskId": "@maisonnette/tissage#build", "cache": "MISS" }
{ "taskId": "@maisonnette/tissage#test", "cache": "MISS" }
{ "taskId": "shop#build", "cache": "MISS" }
{ "taskId": "backoffice#build", "cache": "MISS" }
...
```

tissage#build misses every time even with no changes. why"""),
    A("""A task that misses on an unchanged tree usually has an input that changes on every run. Common culprits:

1. **A generated file inside the package that's part of the inputs**: e.g. `src/tokens.generated.ts` written by a
   prebuild step with a timestamp in its header. Turbo hashes it, it differs, miss.
2. **Environment variables**: if `turbo.json` lists `env` for the task (or `globalEnv`), and CI sets something like
   `GITHUB_SHA` or `BUILD_TIME` in it, the hash changes per run.
3. **Outputs not declared**: if `outputs` is missing, the cache stores nothing useful, and the next task restores an
   empty `dist`.

To see which input differs, run twice and compare:

```
pnpm turbo run build --filter=@maisonnette/tissage --summarize
```

then diff the two `.turbo/runs/*.json` files: look at `inputs` (file hashes) and `environmentVariables`.

For Tissage specifically, I'd bet on the tokens: if the Style Dictionary step writes into `src/`, make it a
separate task (`tokens#build`) that Tissage `dependsOn`, and write its output into the tokens package's `dist/`."""),
    U("it was the tokens, sd writes a header comment with the build date. turned off the header, now it's a HIT. CI per PR is down to 6 min on average"),
    A("14 to 6 minutes is worth celebrating at the next platform sync. Make sure the remote cache token is scoped read-only for PRs from forks, if you ever accept them."),
)

S.add(
    "move-02", "2026-03-09 21:00",
    U("""we moved on saturday!! Annecy, old town, flat is lovely but 2nd floor with no lift was a nightmare with the sofa.
Praline hid in the wardrobe for 24h and now owns the windowsill facing the canal. Internet: the fibre install is on
the 17th so I'm working on 4G from my phone until then 😬 tomorrow is my first train commute to Lyon, TER Annecy ->
Lyon Part-Dieu is 1h55, 7:04 train. any tips to work on the train with bad connection?"""),
    A("""Congratulations on the move, and glad Praline found her spot! For working on the train with flaky connection:

- **Work offline by design**: pull all repos and run `pnpm install` the evening before; keep the Storybook build and
  docs you need running locally. Vite's dev server doesn't need the network once dependencies are installed.
- **Git**: commit locally on the train and push when you arrive; batch your `git fetch` for a station stop.
- **Docs offline**: DevDocs (devdocs.io) can store MDN, React and TypeScript docs offline in the browser.
- **Save the PR reviews** for the office: they need network and focus.
- **Tethering**: the Annecy-Aix-les-Bains stretch and some valleys have dead zones; the signal comes back near
  Ambérieu. Use those gaps for writing (ADRs, migration guides, announcements).
- **Noise-cancelling headphones** and a power bank; not every TER seat has a socket.

Two hours each way is also a good slot for reading or the things you never get to at the desk."""),
    U("good list. the 4g is enough for slack so it's fine"),
)

S.add(
    "node-01", "2026-03-12 13:35",
    U("""upgrading the monorepo from node 18 to node 22 since 18 is EOL. `.nvmrc` and the CI matrix changed, one test fails:

```
 FAIL  src/utils/formatPrice.test.ts > formatPrice > formats euros in fr-FR
AssertionError: expected '1 299,00 €' to be '1 299,00 €'

- Expected
+ Received

- 1 299,00 €
+ 1 299,00 €
```

the strings look identical??"""),
    A("""They look identical but aren't: the spaces differ. In `fr-FR`, `Intl.NumberFormat` uses a **narrow no-break space**
(U+202F) as the thousands separator and a **no-break space** (U+00A0) before the € sign. Node 22 ships a newer ICU
(CLDR data) than Node 18, and the separator characters changed between versions.

Don't hard-code the expected string with whatever space your editor inserts. Either:

```ts
expect(formatPrice(1299)).toBe(new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(1299));
```

(testing that you call Intl correctly), or normalise spaces in the assertion:

```ts
const norm = (s: string) => s.replace(/[\\u00A0\\u202F]/g, ' ');
expect(norm(formatPrice(1299))).toBe('1 299,00 €');
```

Also check the shop's server: if it renders prices with Node 22 while some browsers format them client-side, you
could get a hydration mismatch warning on the price. Formatting on the server only and passing the string avoids it."""),
    U("normalised it. 412 -> now 468 tests all pass on node 22. the repo is on node 22 now, .nvmrc says 22.14"),
)

S.add(
    "codemod-01", "2026-03-18 15:10",
    U("writing the v2 codemod with jscodeshift: rename `variant=\"ghost\"` to `variant=\"tertiary\"` and `isDisabled` to `disabled` on Tissage components only (not on other libs' components). dry run on the shop:"),
    U("""```
$ npx jscodeshift -t codemods/v2-props.ts --parser=tsx --dry --print apps/shop/src
Processing 1421 files...
Spawning 15 workers...
Sending 95 files to free worker...
...
All done.
Results:
0 errors
1262 unmodified
12 skipped
147 ok
Time elapsed: 9.812seconds
```

147 files changed, sounds right. but how do I make sure it only touched tissage components? e.g. we have a
`Button` from a third-party carousel lib too"""),
    A("""The safe way is to resolve each JSX element back to its import, and only rewrite elements whose local name was
imported from `@maisonnette/tissage`:

```ts
export default function transform(file, api) {
  const j = api.jscodeshift;
  const root = j(file.source);

  const tissageNames = new Set<string>();
  root.find(j.ImportDeclaration, { source: { value: '@maisonnette/tissage' } })
    .forEach((path) => path.node.specifiers?.forEach((s) => tissageNames.add(s.local!.name)));
  if (!tissageNames.size) return undefined;  // file untouched

  root.find(j.JSXOpeningElement)
    .filter((path) => path.node.name.type === 'JSXIdentifier' && tissageNames.has(path.node.name.name))
    .forEach((path) => {
      for (const attr of path.node.attributes ?? []) {
        if (attr.type !== 'JSXAttribute') continue;
        if (attr.name.name === 'isDisabled') attr.name.name = 'disabled';
        if (attr.name.name === 'variant' && attr.value?.type === 'StringLiteral' && attr.value.value === 'ghost') {
          attr.value.value = 'tertiary';
        }
      }
    });
  return root.toSource();
}
```

Because it works from the imports, `import { Button } from 'some-carousel'` is never in the set. Aliased imports
(`import { Button as TButton }`) work too, since it uses the local name.

Things it won't catch, to list in the migration guide: props spread from objects (`{...buttonProps}` holding
`isDisabled`), variants computed at runtime (`variant={isGhost ? 'ghost' : 'primary'}`), and styled wrappers around
Tissage components. A TypeScript build after the codemod will flag most of those, since v2's types no longer accept
the old names."""),
    U("rewrote it like that: 139 files now instead of 147, so 8 were the carousel's Button 😬 good catch"),
)

S.add(
    "pottery-02", "2026-03-20 20:15",
    U("Update: found a pottery studio in Annecy, in Annecy-le-Vieux, thursday evenings this time. the teacher does raku firing in summer!! I finished 14 pieces at the Croix-Rousse studio before the move, most are wonky mugs"),
    A("""Raku is a wonderful thing to try: pieces come out of the kiln red-hot and go into sawdust or newspaper, and the
crackle and metallic glazes are unpredictable every time. A tip for it: raku clay is coarser (lots of grog) so it
survives the thermal shock; expect it to feel different on the wheel from what you're used to.

And fourteen pieces in one course is a lot. Wonky mugs are the best mugs."""),
)

S.add(
    "japan-01", "2026-03-25 21:45",
    U("""holiday planning!! Mathis and I are going to Japan from April 11 to April 26, right after the v2 release (if it
ships on time lol). first time for both. rough plan: Tokyo 5 nights, Kanazawa 3 nights, Kyoto 6 nights, fly back
from Osaka. we like food, crafts (pottery obviously), gardens, not huge on nightlife. is a JR pass worth it?"""),
    A("""What a good time to go: mid-April is the end of cherry blossom in Tokyo and Kyoto, and Kanazawa's can still be
out.

**JR Pass**: since the October 2023 price increase, a 14-day pass (50,000 yen) rarely pays off for a route like
yours. Your long rides are roughly Tokyo → Kanazawa (Hokuriku Shinkansen, about 14,000 yen), Kanazawa → Kyoto
(Thunderbird + Shinkansen since the 2024 extension, about 7,000 yen) and Kyoto → Kansai airport (Haruka, about
3,600 yen with a foreigner discount). That's well under the pass price. Buy individual tickets; get a Suica or
ICOCA card (in your phone's wallet) for local trains and buses.

**For pottery and crafts**
- **Kanazawa**: Kutani ware, the Ōhi pottery museum (tea bowls, a family kiln since the 17th century), the
  Higashi Chaya district, gold leaf workshops. Kenroku-en garden early in the morning.
- **Kyoto**: Kiyomizu-zaka is lined with Kiyomizu-yaki shops; there are hands-on wheel classes in the Gojō-zaka area
  (book ahead). The Kawai Kanjirō house museum is a must for a potter: his house and climbing kiln.
- **Tokyo**: Kappabashi street for kitchenware and ceramics; the Mingei-kan (folk crafts museum) in Komaba.

**Food**: Ōmichō market in Kanazawa for seafood at breakfast; Nishiki market in Kyoto; in Tokyo, a depachika
(department store food hall) is an easy, great dinner.

**Practical**: book the Kawai house? No, it's walk-in, but the wheel classes and popular kaiseki dinners need
booking a few weeks ahead. Kyoto in April is crowded: start at 7-8 am at the famous temples."""),
    U("Kawai Kanjirō house is going on the list. booked a wheel class in Kyoto on April 21"),
)

S.add(
    "release-01", "2026-03-31 18:20",
    U("""WE SHIPPED v2 🎉🎉

```
$ pnpm changeset publish
🦋  info npm info @maisonnette/tokens
🦋  info npm info @maisonnette/icons
🦋  info npm info @maisonnette/tissage
🦋  info @maisonnette/tokens is being published because our local version (2.0.0) has not been published on npm
🦋  info @maisonnette/tissage is being published because our local version (2.0.0) has not been published on npm
🦋  success packages published successfully:
🦋  @maisonnette/tokens@2.0.0
🦋  @maisonnette/tissage@2.0.0
🦋  Creating git tags...
🦋  New tag:  @maisonnette/tokens@2.0.0
🦋  New tag:  @maisonnette/tissage@2.0.0
```

all 38 components on vanilla-extract, on the date we promised in January. the back office already upgraded this
afternoon with the codemod. the shop upgrades tomorrow. Yanis migrated 11 of the 38 components himself, not bad for
someone who'd never seen vanilla-extract in february. can you help me write a short thank-you message for the
channel that credits people without being cheesy"""),
    A("""Congratulations, shipping a major version on the promised date is rarer than it should be. A draft:

---

**Tissage 2.0.0 is out.**

All 38 components now run on vanilla-extract: no runtime styling, typed themes for the three brands, and a
stylesheet you import once. The migration guide and the codemod are in the docs; the back office is already on it.

Thanks to **Yanis**, who migrated 11 components in six weeks, starting from zero on vanilla-extract; to **Sophie and
Clara** for the token work that made three brands one theme contract; to **Aïcha** for protecting the scope when it
would have been easy to add to it; and to the back-office team for upgrading on day one and finding the last two
bugs before anyone else did.

Office hours continue on Thursdays for migration questions.

---

Short, specific about what each person did, which is what keeps it from sounding cheesy."""),
    U("posted as is, except the back office didn't find 2 bugs, they found 1. thanks"),
)

S.add(
    "perf-02", "2026-04-02 10:30",
    U("""the shop upgraded to v2 yesterday. lighthouse on the same product page as in november:

```
Performance: 81
First Contentful Paint ........ 1.3 s
Largest Contentful Paint ...... 2.4 s
Total Blocking Time ........... 210 ms
Cumulative Layout Shift ....... 0.01
Speed Index ................... 2.1 s
```

the JS bundle of the product page is smaller too, no more styled-components runtime. now Aïcha wants a bundle
budget that fails CI. we had an informal one of 180 KB gzip for the product page's initial JS; with v2 we're at
138 KB. she suggests 150. how do I enforce it?"""),
    A("""That's a big improvement: TBT more than halved and LCP under the 2.5 s "good" threshold.

For the budget, `size-limit` is the simplest to wire into CI:

```json
// apps/shop/.size-limit.json
[
  {
    "name": "product page initial JS",
    "path": [".next/static/chunks/pages/p/[slug]-*.js", ".next/static/chunks/framework-*.js", ".next/static/chunks/main-*.js"],
    "limit": "150 KB",
    "gzip": true
  }
]
```

```yaml
# .github/workflows/ci.yml
- run: pnpm --filter shop build
- run: pnpm --filter shop size-limit
```

`size-limit` exits non-zero above the limit, so the job fails. The `andresz1/size-limit-action` GitHub Action also
comments the difference on each PR, which makes the budget visible before it fails.

150 KB gives you 12 KB of room over 138, which is about right: enough for normal feature work, tight enough that a
new heavy dependency gets noticed. Document in the README that raising the limit needs a note in the PR on why."""),
    U("set it to 150 and it's in CI now. first PR that failed it was someone adding the full lodash lol"),
)

S.add(
    "git-01", "2026-02-27 17:50",
    U("""help I messed up a rebase

```
$ git rebase -i origin/main
Auto-merging packages/tissage/src/Select/Select.tsx
CONFLICT (content): Merge conflict in packages/tissage/src/Select/Select.tsx
error: could not apply 4be91c2... select: migrate to vanilla-extract
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted_files>", then run "git rebase --continue".
$ git checkout --theirs packages/tissage/src/Select/Select.tsx
$ git add . && git rebase --continue
...
Successfully rebased and updated refs/heads/ines/select-ve.
```

now my Select is the old styled-components version and 2 days of work are gone??"""),
    A("""Don't worry, the work isn't gone: git keeps the old commits in the reflog.

What happened: during a rebase, "ours" and "theirs" are swapped compared to a merge. "Ours" is the branch you're
rebasing **onto** (`origin/main`), "theirs" is **your** commit being replayed. Hmm, wait: that means `--theirs` should
have kept your version. Let me reconsider: `--theirs` is your commit, so the file should be yours, unless a *later*
commit in the rebase also touched `Select.tsx`, or you resolved the conflict on a different commit than you think.

Either way, recover first:

```
$ git reflog
a81c0de HEAD@{0}: rebase (finish): returning to refs/heads/ines/select-ve
...
7d3f2b1 HEAD@{9}: checkout: moving from ines/select-ve to ...
3c52e90 HEAD@{10}: commit: select: keyboard + tests
```

Find the last entry before `rebase (start)`: that's your branch as it was. Then:

```
$ git branch backup/select-ve HEAD@{10}     # whichever entry precedes the rebase
$ git diff backup/select-ve -- packages/tissage/src/Select/Select.tsx
```

If the diff shows your vanilla-extract version on the backup branch, restore the file from it:

```
$ git checkout backup/select-ve -- packages/tissage/src/Select/Select.tsx
$ git commit -m "select: restore vanilla-extract version lost in rebase"
```

And for next time: `git rebase --abort` is always safe mid-rebase, and `git config --global rerere.enabled true`
remembers conflict resolutions."""),
    U("found it in the reflog, HEAD@{7}. there was a fixup commit from Yanis touching Select too, that's what overwrote it. restored, phew"),
)

S.add(
    "japan-02", "2026-04-28 09:10",
    U("back from japan since sunday night. jetlag is brutal. the Kawai Kanjirō house was the highlight, and the wheel class in Kyoto, I threw a tea bowl that they'll ship in 2 months. now: 240 unread slack messages and a broken Storybook deploy. can you help me triage the deploy first?"),
    U("""```
Run pnpm build-storybook --quiet
@storybook/cli v8.0.9

info => Cleaning outputDir: storybook-static
info => Loading presets
ERR! Error: Cannot find module '@storybook/addon-interactions/preset'
ERR! Require stack:
ERR! - /home/runner/work/monorepo/node_modules/.pnpm/@storybook+core-common@8.0.9/.../presets.js
ERR!     at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)
Error: Process completed with exit code 1.
```"""),
    A("""Welcome back! That error means Storybook's config lists an addon that isn't installed where Storybook looks for
it. Two likely causes while you were away:

1. **Someone removed `@storybook/addon-interactions`** from `package.json` (perhaps depcheck flagged it, since it's
   only referenced as a string in `.storybook/main.ts`, not imported), while `main.ts` still lists it.
2. **A version mismatch**: e.g. a Renovate PR bumped some Storybook packages to 8.1 and not others; Storybook needs
   all `@storybook/*` packages on the same version.

Check:

```
git log -p --since=2026-04-10 -- packages/tissage/package.json .storybook/main.ts
pnpm why @storybook/addon-interactions
```

If (1): re-add it (`pnpm add -D @storybook/addon-interactions@8.0.9`) and add it to depcheck's `ignores` so it doesn't
happen again. If (2): `pnpm dlx storybook@8.0.9 upgrade` or pin all Storybook packages together with a Renovate
group rule."""),
    U("it was 1, depcheck in a cleanup PR. fixed + added to ignores. deploy green"),
)

S.add(
    "a11y-03", "2026-05-05 14:00",
    U("""the RGAA re-audit results came in today: 89%!! from 62% in november. remaining non-conformities:

| Criterion | Page | Issue |
|-----------|------|-------|
| 1.2 | Home | decorative images in the hero carousel have non-empty alt |
| 7.1 | Product | zoom on gallery images not keyboard operable |
| 11.10 | Checkout | error messages not linked to fields on the address form |
| 13.8 | Home | carousel auto-plays with no pause control |

the checkout one isn't even ours, checkout uses their own address form. we need to publish the accessibility
statement (déclaration d'accessibilité) now. what goes in it?"""),
    A("""89% is an excellent jump, congratulations. Above 50% you can declare the site "partiellement conforme" (fully
conformant needs 100%).

The statement follows a standard template (the one from the DINUM / accessibilite.numerique.gouv.fr generator).
It must contain:

1. **Conformance status**: "partiellement conforme avec le RGAA version 4.1", and the rate: 89%.
2. **Test results**: the rate, and the sample of pages audited (usually listed at the end).
3. **Non-accessible content**, in three groups:
   - non-conformities (your four criteria above, each described in plain language);
   - disproportionate burden exemptions, if any (be careful: these must be justified and are checked);
   - content outside the scope (e.g. third-party content you don't control).
4. **How the statement was established**: date of the audit, who performed it (the agency), technologies used
   (HTML, CSS, JavaScript, WAI-ARIA), tools and assistive technologies (NVDA, VoiceOver, browsers and versions).
5. **Feedback and contact**: an email or form to report an accessibility problem.
6. **Recourse**: the paragraph on the Défenseur des droits (it's in the template, keep it verbatim).

Also needed under the law: a link to the statement in the footer of every page, with the status in the link text
("Accessibilité : partiellement conforme"), and a multi-year accessibility plan (schéma pluriannuel) with an action
plan for the current year: put the four fixes in there with target dates.

On the checkout form: it's still part of your site for the audit, so it stays in the non-conformities even if
another team owns it. Tissage's new TextField already supports `aria-describedby` for errors, so the fix for
criterion 11.10 could be to move checkout onto it."""),
    U("yep, Yanis is on it with his old team. carousel pause button is on me"),
    A("""For the pause control (criterion 13.8 and WCAG 2.2.2): a visible button as the first focusable element of the
carousel, toggling between "Mettre en pause" and "Lire" with `aria-pressed` or a changing label; auto-play should
also stop while the carousel has keyboard focus or the pointer hovers over it, and respect
`prefers-reduced-motion: reduce` by not auto-playing at all."""),
)

S.add(
    "dark-01", "2026-05-12 11:25",
    U("""next feature: dark mode for Tissage (v2.1). Clara made the dark palette in figma. I'm checking contrast for the
text tokens on the dark surface #1C1B1A:

- text.default #F2EEE8
- text.muted #A39E97
- text.link #8FB4E3

the muted one looks low to me. also we need 18 new icons for dark-specific illustrations in empty states, Clara is
drawing them"""),
    A("""Computing the contrast against `#1C1B1A` (relative luminance ≈ 0.011):

| Token | Value | Luminance | Ratio on #1C1B1A | AA normal text (4.5:1) |
|-------|-------|-----------|------------------|------------------------|
| text.default | #F2EEE8 | ≈ 0.851 | ≈ 14.7:1 | pass |
| text.muted | #A39E97 | ≈ 0.344 | ≈ 6.4:1 | pass |
| text.link | #8FB4E3 | ≈ 0.435 | ≈ 7.9:1 | pass |

So text.muted is fine at **about 6.4:1**; it looks low because dark UIs make mid-greys feel dimmer than their
contrast ratio suggests (and because the default text is very bright next to it). If it feels weak, that's a design
call rather than a compliance problem.

Things to check beyond text:
- **Focus ring**: your focus outline needs 3:1 against the dark surface (WCAG 1.4.11); the light-mode ring colour
  may not be visible.
- **Borders and input outlines** also need 3:1 if they're the only way to see the control.
- **Elevation**: in dark mode, raised surfaces are usually *lighter*, not shadowed; add surface tokens
  (`surface.raised`, `surface.overlay`) rather than reusing shadows.
- **Images and illustrations**: the 18 new icons should use `currentColor` or tokens so they follow the theme.

In vanilla-extract, dark mode is a fourth value of the same contract per brand (or a `[data-theme="dark"]`
selector with `createTheme`), so components don't change."""),
    U("ok muted stays. Clara's icons will use currentColor"),
)

S.add(
    "intern-01", "2026-05-14 09:40",
    U("quick one: we're getting an intern from the IUT in Annecy from May 18 to August 14, Hugo, 2nd year. he'll work on the docs site and the Storybook examples. Aïcha asked me to be his tutor, first time I tutor someone. what does the school expect from the tutor usually?"),
    A("""For a BUT/IUT internship in France the tutor ("maître de stage" or "tuteur entreprise") usually has to:

- **Sign the convention de stage** before the start (the school sends it; check the dates and the missions match).
- **Welcome and supervise** him day to day: clear missions, regular check-ins, someone to ask.
- **Meet the school's tutor**: usually one visit or a video call mid-internship.
- **Fill in an evaluation** at the end (a form from the IUT), often with a grade proposal.
- **Review his internship report** if he asks, and sometimes attend the oral presentation (soutenance).
- **Confirm the gratification**: above two months the internship must be paid (the legal minimum is about 4.35 euros
  per hour in 2026), which HR handles.

For a docs-site internship, a good first week: set up, read the docs as a newcomer and list everything confusing
(that list is gold), then fix the three worst pages."""),
    U("good, HR has the convention. he starts monday"),
)

S.add(
    "swim-02", "2026-05-20 19:55",
    U("first open water swim in the lake today with the club in Annecy, water was 16°C. I swam 2 km in 48 min in the wetsuit, sighting is SO much harder than I thought, I zigzagged a lot. in the pool I'm now doing 2.5 km continuous. 1 month to go"),
    A("""That's right on track: 2.5 km continuous in the pool a month out is exactly where you wanted to be, and 2 km in
48 min in open water on your first go is good.

For the zigzag, which costs everyone distance in open water:

- **Sight every 6 strokes**, and make it quick: lift only your eyes above the water ("crocodile eyes"), then breathe
  to the side. Don't lift the whole head to breathe forward; that sinks your legs.
- **Pick big landmarks** (a church tower, a hotel, a mountain notch) rather than the buoys, which are hard to see.
- **Check your stroke symmetry** in the pool: swim 25 m with eyes closed (with someone watching) and see which way
  you drift; usually one arm crosses the midline or pulls harder.
- **Practise drafting**: swimming just behind or beside someone's hip saves energy on race day.

Next open-water sessions: practise the start (running in, or a deep-water start) and turning around a buoy."""),
)

S.add(
    "sister-01", "2026-05-26 22:10",
    U("my little sister Léa defends her PhD in Grenoble on June 12!! it's in glaciology, on how Alpine glaciers' surface debris changes melt rates. I want to write her a card for the day, she's been through a lot with this thesis (her advisor left in the 2nd year). something warm but not long, in french, tutoiement"),
    A("""Voici une proposition :

---

Ma Léa,

Quatre ans de glaciers, de terrain, de données et de doutes, et un changement de directeur en plein milieu : tu as
tenu bon, et tu as fait bien plus que tenir.

Aujourd'hui, tout le monde va découvrir ce que je sais depuis longtemps : tu es brillante, têtue dans le bon sens, et
tu expliques la fonte des glaciers mieux que quiconque.

Je suis tellement fière de toi. Profite de chaque minute, Docteure.

Je t'aime,
Inès

---

Tu peux remplacer « quatre ans » si sa thèse a duré plus ou moins longtemps, et ajouter un souvenir à vous deux si tu
veux une touche plus personnelle."""),
    U("it was 3.5 years but 'quatre ans' is close enough, she'll laugh. perfect"),
)

S.add(
    "flaky-01", "2026-05-28 16:30",
    U("""the Modal test is flaky in CI, passes locally every time. ran it 50x in CI:

```
 ❯ src/Modal/Modal.test.tsx (16 tests | 1 failed) 2131ms
   × Modal > returns focus to the trigger on close 1014ms
     → expected <body></body> to be <button data-testid="open">Ouvrir</button>
       // Object.is equality

Flaky rate over 50 runs: 7/50 failed
```

what's the usual cause"""),
    A("""Focus-return tests are flaky for a few recurring reasons; in your case the failure message (focus on `<body>`)
points at timing:

1. **Focus is restored after an animation or `requestAnimationFrame`**, and the assertion runs before it. Locally the
   machine is fast enough; in CI under load it isn't. Use `await waitFor(() => expect(trigger).toHaveFocus())`
   instead of an immediate `expect`.
2. **The dialog closes with a transition** (`onTransitionEnd`) which never fires in jsdom. If the focus restore is in
   the transition end handler, it only runs via a fallback timeout. Make the component restore focus when it closes,
   not when the animation ends, or disable transitions in tests.
3. **Another test leaks a timer**: a previous test in the same file leaves fake timers on. Check for
   `vi.useRealTimers()` in `afterEach`.

Since v2 the Modal uses the native `<dialog>`: jsdom doesn't implement `showModal()`/`close()` fully, so if you
polyfill it in the test setup, check that the polyfill's `close()` fires the `close` event synchronously, which
browsers do."""),
    U("it was 1, focus restore was inside a requestAnimationFrame. waitFor fixed it, 0/50 now"),
)

S.add(
    "review-01", "2026-06-03 18:05",
    U("""Update: had my mid-year review with Aïcha. I'm promoted to senior frontend engineer, effective July 1!! she
mentioned v2 shipping on the new date, the RGAA score and onboarding Yanis. salary goes from 52k to 58k gross.
also I'll officially be the tech lead of the design system team from July. any advice for the first month as a
tech lead?"""),
    A("""Congratulations, well deserved by the sound of it! A few things that help in a first month as tech lead:

- **Write down how the team works today** (how decisions are made, review rules, release process) before changing
  anything. You'll learn what's implicit.
- **Decide what you'll stop doing.** As a tech lead you'll code less; pick the areas you hand over (e.g. Yanis owns
  forms, Hugo the docs examples) so you don't become the bottleneck on every PR.
- **One-on-ones with each team mate**, including Sophie and Clara: what they want to grow in, what frustrates them.
- **A short written roadmap for the next two quarters** (v2.1 dark mode, the remaining a11y fixes, the RSC question
  with the shop team), shared with Aïcha and the consumers.
- **Keep office hours**: as lead, they're your best channel to hear what consumers need.
- **Protect some focus time** for yourself; the train days are probably a good slot.

And ask Aïcha what she expects from a tech lead specifically: the role means different things in different
companies."""),
)

S.add(
    "dark-02", "2026-06-10 15:40",
    U("v2.1 with dark mode shipped today. 3 brands x light/dark. the shop turns it on next week behind a feature flag. changelog says 2.1.0: dark theme, 18 empty-state illustrations, focus ring tokens per theme. cool"),
    A("""Congratulations! For the rollout behind the flag, a few things worth watching:

- **Flash of the wrong theme** on load: set the `data-theme` attribute in a tiny inline script in `<head>` (from
  `localStorage` or `prefers-color-scheme`) before the CSS applies, not in a React effect.
- **Product photos** on dark backgrounds: white-background packshots look like glowing boxes. A subtle surface behind
  images, or a slightly reduced brightness, helps.
- **Third-party widgets** (reviews, chat, payment iframes) won't follow your theme; list them and decide per widget.
- Track how many users choose dark when offered, so you know if it's worth more investment."""),
    U("the packshot thing is so true, sophie is on it"),
)

S.add(
    "swim-03", "2026-06-22 12:00",
    U("DID IT. lake crossing on saturday, 2.5 km in 1h02min, 214th out of 380. sighting was fine this time, the trick of picking the church tower worked. Mathis was waiting at the finish with Praline's photo on a sign lol. next year: the 5k?"),
    A("""Congratulations! 1h02 for a first 2.5 km open-water race is a solid time, and mid-pack in your first race is
great.

For a 5 km next year: it's a real step (double the distance, and usually 2 hours in the water), but very doable in a
year. Keep swimming two or three times a week through the winter, build your long swim to 3-4 km in the pool by
spring, and do more open-water swims of 1h30+ in May-June. Feeding (a gel at halfway) and cold become the new things
to learn."""),
)

S.add(
    "badge-01", "2025-10-29 10:05",
    U("add a `size` prop to Badge, `sm` | `md`, default md. sm is 16px high, 11px font. keep the styled-components version for now"),
    A("Let me look at the Badge component and its tests first."),
    A("""```
$ cat packages/tissage/src/Badge/Badge.tsx
import styled from 'styled-components';
import { tokens } from '../tokens';

export type BadgeProps = { tone?: 'neutral' | 'success' | 'warning' | 'danger'; children: React.ReactNode };

const Root = styled.span<{ $tone: NonNullable<BadgeProps['tone']> }>`
  display: inline-flex;
  align-items: center;
  height: 20px;
  padding: 0 ${tokens.space[2]};
  font-size: 12px;
  border-radius: 10px;
  background: ${({ $tone }) => tokens.color.badge[$tone].bg};
  color: ${({ $tone }) => tokens.color.badge[$tone].fg};
`;

export function Badge({ tone = 'neutral', children }: BadgeProps) {
  return <Root $tone={tone}>{children}</Root>;
}
```

The height and font size are hard-coded, so `size` maps to those two values plus the radius (half the height, to
keep the pill shape). I'll add a `$size` transient prop so it doesn't reach the DOM."""),
    A("""Here's the change:

```diff
-export type BadgeProps = { tone?: 'neutral' | 'success' | 'warning' | 'danger'; children: React.ReactNode };
+export type BadgeProps = {
+  tone?: 'neutral' | 'success' | 'warning' | 'danger';
+  size?: 'sm' | 'md';
+  children: React.ReactNode;
+};
+
+const sizes = { sm: { height: 16, font: 11 }, md: { height: 20, font: 12 } } as const;

-const Root = styled.span<{ $tone: NonNullable<BadgeProps['tone']> }>`
+const Root = styled.span<{ $tone: NonNullable<BadgeProps['tone']>; $size: NonNullable<BadgeProps['size']> }>`
   display: inline-flex;
   align-items: center;
-  height: 20px;
+  height: ${({ $size }) => sizes[$size].height}px;
   padding: 0 ${tokens.space[2]};
-  font-size: 12px;
-  border-radius: 10px;
+  font-size: ${({ $size }) => sizes[$size].font}px;
+  border-radius: ${({ $size }) => sizes[$size].height / 2}px;
```

Now running the Badge tests."""),
    A("""```
$ pnpm vitest run src/Badge
 ✓ src/Badge/Badge.test.tsx  (6 tests) 98ms

 Test Files  1 passed (1)
      Tests  6 passed (6)
```

All pass. I'll add a test for `size="sm"` and a story."""),
    U("just the story, the test would be testing styled-components"),
    A("Fair. Added `Small` to `Badge.stories.tsx` with all four tones side by side, so the visual tests cover it."),
    U("ok commit it"),
    A("""```
$ git add packages/tissage/src/Badge && git commit -m "badge: add size prop (sm, md)"
[ines/badge-size 5e1a7d3] badge: add size prop (sm, md)
 2 files changed, 24 insertions(+), 6 deletions(-)
```"""),
)

S.add(
    "eslint-01", "2025-11-26 14:50",
    U("we're on eslint 8 with .eslintrc.cjs, want to move to flat config since eslint 9. how bad is it"),
    A("""Usually an afternoon for a monorepo. The shape changes from cascading `.eslintrc` files to one
`eslint.config.js` exporting an array of config objects:

```js
// eslint.config.js
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import react from 'eslint-plugin-react';
import jsxA11y from 'eslint-plugin-jsx-a11y';

export default tseslint.config(
  js.configs.recommended,
  ...tseslint.configs.recommended,
  react.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  { ignores: ['**/dist/**', '**/storybook-static/**'] },
  { files: ['**/*.test.tsx'], rules: { '@typescript-eslint/no-non-null-assertion': 'off' } },
);
```

The migration helper `npx @eslint/migrate-config .eslintrc.cjs` gives you a first version. The painful parts are
plugins that don't ship flat configs yet; `@eslint/compat`'s `fixupPluginRules` wraps those."""),
    U("ran the migrate tool, now this"),
    U("""```
$ pnpm eslint .

Oops! Something went wrong! :(

ESLint: 9.15.0

TypeError: Key "plugins": Key "import": Cannot redefine plugin "import".
    at ConfigArray.normalize (.../@eslint/config-array/dist/cjs/index.cjs:1001:12)
```"""),
    A("""Two config objects both register a plugin under the name `import`: probably the migration output added
`eslint-plugin-import` explicitly, and another shared config (e.g. an `airbnb`-style or your own
`@maisonnette/eslint-config`) registers it too. In flat config a plugin name can only be bound once.

Search for it:

```
grep -rn "plugins" eslint.config.js packages/eslint-config/
```

Keep one registration (the shared config's) and remove the other; rules referencing `import/...` keep working."""),
    U("yep our shared config registers it. removed. 0 errors, 37 warnings, mostly jsx-a11y, which is... on brand given the audit"),
    A("Those 37 are a useful list: compare them with the audit's findings, since jsx-a11y catches the static half (missing labels, click handlers on divs) and the audit the dynamic half."),
)

S.add(
    "bf-01", "2025-12-03 09:15",
    U("black friday survived. freeze lifted yesterday. product page LCP in the field (CrUX p75) went from 3.6s to 3.1s after the priority prop, lighthouse lab number still says 3.8 but whatever. conversion on product pages was +4% vs last year's BF, not that anyone will credit the gallery lol"),
    A("""Congrats on getting through it. The lab/field gap is normal: Lighthouse simulates a slow 4G phone with a cold
cache, while CrUX reflects real visitors, many on faster connections and with warm caches. For tracking progress,
the field p75 is the number that matters (it's what Google uses for Core Web Vitals), and 3.6 → 3.1 s from one
prop is a good result.

To get credit: put the CrUX curve next to the release date of the priority prop in your next update to Aïcha's
group, and note that it shipped before the freeze."""),
    U("true. after the holidays"),
)

S.add(
    "sb8-01", "2026-01-22 16:00",
    U("upgrade storybook 7 to 8, go"),
    A("Let me run the automated upgrade first and see what it changes."),
    A("""```
$ pnpm dlx storybook@8 upgrade
╭──────────────────────────────────────────╮
│ Upgrading Storybook from 7.6.17 to 8.0.9 │
╰──────────────────────────────────────────╯
🔎 checking possible migrations..
🔎 found a 'removeReactDependency' migration
🔎 found a 'remove-global-client-apis' migration
🔎 found a 'mdx1to3' migration
    ✔ ran 'removeReactDependency' migration
    ✔ ran 'remove-global-client-apis' migration
    ✘ 'mdx1to3' migration: 4 files need manual changes
      - src/docs/Introduction.mdx
      - src/docs/Tokens.mdx
      - src/docs/Icons.mdx
      - src/docs/Accessibility.mdx
```

Two automatic migrations ran. The MDX one needs manual changes in 4 docs files; MDX 3 is stricter about HTML
comments and unescaped `{` and `<`. Let me look at the first."""),
    A("""```
$ pnpm build-storybook 2>&1 | grep -A3 "Tokens.mdx"
src/docs/Tokens.mdx:14:1: Unexpected character `!` (U+0021) before name, expected a character that can start a name
  <!-- generated by tokens:build, do not edit -->
```

HTML comments aren't valid in MDX 3. They become JSX comments: `{/* generated by tokens:build, do not edit */}`.
I'll fix the four files the same way."""),
    U("ok"),
    A("""Fixed. Build output now:

```
$ pnpm build-storybook --quiet
info => Output directory: storybook-static
✓ built in 41.27s
```

Storybook 8 builds. The dev server starts in about 11 s here. One thing left for you to decide: Storybook 8 drops the
`storyStoreV6` mode, and 3 stories still use `storiesOf`; they no longer load. They're in `src/legacy/`."""),
    U("delete src/legacy, nobody looks at it"),
    A("""```
$ git rm -r -q packages/tissage/src/legacy && git commit -qam "storybook: upgrade to 8.0.9, MDX 3 comments, drop legacy storiesOf stories"
$ git log --oneline -1
b7d02aa storybook: upgrade to 8.0.9, MDX 3 comments, drop legacy storiesOf stories
```"""),
)

S.add(
    "renovate-01", "2026-01-26 10:45",
    U("renovate opens like 25 PRs a week on the monorepo, nobody reviews them. config?"),
    A("""Group and schedule them so you get a handful of PRs you actually read:

```json
{
  "extends": ["config:recommended", ":semanticCommits"],
  "schedule": ["before 7am on monday"],
  "prConcurrentLimit": 5,
  "packageRules": [
    { "matchPackagePatterns": ["^@storybook/", "^storybook$"], "groupName": "storybook" },
    { "matchPackagePatterns": ["^@vanilla-extract/"], "groupName": "vanilla-extract" },
    { "matchPackagePatterns": ["^vite", "^@vitejs/", "^vitest"], "groupName": "vite and vitest" },
    { "matchDepTypes": ["devDependencies"], "matchUpdateTypes": ["minor", "patch"], "groupName": "dev deps (non-major)", "automerge": true },
    { "matchUpdateTypes": ["major"], "dependencyDashboardApproval": true }
  ]
}
```

- Grouping keeps Storybook packages on one version (mixed versions break it).
- Automerge for minor/patch dev dependencies when CI is green.
- Majors wait for approval on the dependency dashboard issue, so they don't show up as PRs until you want them."""),
    U("does automerge need branch protection changes?"),
    A("It needs the required checks to be set on `main` (so Renovate knows when CI is green) and Renovate's app allowed to merge. If you require an approving review on `main`, either exempt Renovate or use `platformAutomerge` with GitHub's auto-merge, which still respects the review rule."),
    U("we require 1 review. I'll leave automerge off then, grouping alone will help"),
)

S.add(
    "cat-02", "2026-02-01 11:30",
    U("took Praline to the vet for her booster. she's 4.2kg, vet says perfect. she also said to switch her to 'sterilised' food since she's spayed. is it a real thing or marketing"),
    A("""A bit of both. Spayed cats have lower energy needs (roughly 20-30% less) and a higher risk of weight gain, so
food for sterilised cats is mostly lower in calories and fat, with more fibre for satiety, and often formulated for
urinary health. The same result can be had by feeding a smaller portion of a good regular food, but then she gets
fewer nutrients per meal too, so the specific food is a reasonable choice.

At 4.2 kg and "perfect" now, the practical thing is to weigh her every month or two; if she stays stable, whatever
you feed is working."""),
)

S.add(
    "tf-01", "2026-02-05 13:20",
    U("Yanis asked me something I couldn't answer: in TextField, should the error message be linked with aria-describedby or aria-errormessage? we have both hint text and errors"),
    A("""Use `aria-describedby` for both, for now.

- `aria-errormessage` (with `aria-invalid="true"`) is the semantically precise attribute, but screen reader support is
  still uneven: some read it, some ignore it. The RGAA auditors test with NVDA, JAWS and VoiceOver, and
  `aria-describedby` works in all of them.
- With both a hint and an error, list both ids, error first so it's read first:

```tsx
<input
  id={id}
  aria-invalid={error ? true : undefined}
  aria-describedby={[error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined}
/>
{error && <p id={`${id}-error`} className={styles.error}>{error}</p>}
{hint && <p id={`${id}-hint`} className={styles.hint}>{hint}</p>}
```

- Also move focus to the first invalid field on submit (or to an error summary at the top of the form for long
  forms), otherwise users of screen readers don't know the submit failed."""),
    U("told him. he says thanks. also he already wrote 14 tests for TextField in his first week, the guy is fast"),
)

S.add(
    "ci-02", "2026-03-03 09:05",
    U("""gh actions, the visual tests job just sits there

```
visual-tests
Waiting for a runner to pick up this job...
```

for 40 min. other jobs run fine"""),
    A("""A job stuck on "Waiting for a runner" means no runner matches its `runs-on` labels. Other jobs run, so the
visual job probably asks for a different label. Check its `runs-on`:

```
grep -n "runs-on" .github/workflows/*.yml
```

If it says something like `ubuntu-latest-8-cores` or a self-hosted label, that runner group may not exist (larger
runners must be created in the org settings) or may not be available to this repository."""),
    U("runs-on: ubuntu-22.04-4core. someone changed it to speed up screenshots. we don't have larger runners"),
    A("""Then it will wait forever (well, until the 24h queue timeout). Set it back to `ubuntu-22.04` (or
`ubuntu-latest`), and if the visual job is slow, shard it instead:

```yaml
strategy:
  matrix:
    shard: [1, 2, 3]
steps:
  - run: pnpm test:visual --shard=${{ matrix.shard }}/3
```

Three standard runners in parallel usually beat one 4-core runner for screenshot tests, and cost nothing extra on
a public plan's minutes... on a private repo they do count against your minutes, so check with whoever owns the
billing."""),
    U("back to ubuntu-22.04 + 3 shards. visual job 4.6min -> 1.9min"),
)

S.add(
    "strike-01", "2026-03-24 07:10",
    U("sncf strike today and thursday, no TER between annecy and lyon. working from home both days. can you remind me how to set up a slack status that auto-clears at midnight"),
    A("""In Slack: click your profile picture → **Update your status** → type the status (e.g. "🚆 Grève SNCF, en
télétravail") → under **Clear after**, pick **Today**. It clears at midnight in your time zone.

For Thursday, you can't schedule a status in advance natively; set it Thursday morning, or use a saved status
template so it's one click."""),
    U("thx"),
)

S.add(
    "tokens-02", "2025-11-17 15:35",
    U("the Pro brand has its own spacing scale (4/8/12/20/28) while Maisonnette and Atelier use 4/8/12/16/24. Sophie wants to unify. what breaks if Pro moves to the common scale?"),
    A("""Anything in the Pro back office that relies on 20 and 28 becoming 16 and 24: every gap, padding and margin using
`space.4` and `space.5` shrinks by 4px. That's mostly harmless for padding, but it can break:

- **Fixed-height layouts**: toolbars or table rows whose height is computed from spacing tokens.
- **Grids tuned to a width**: a card grid where 4 columns just fit with a 20px gap might still fit (gaps shrink),
  but check the reverse cases where spacing is subtracted.
- **Screenshots**: every Pro visual test changes, so you'll re-baseline all of them; do it in a PR with only this
  change so reviewers can scan the diffs.

A safer path: ask why Pro has its own scale first. If it was chosen for denser data tables, maybe the right fix is a
`density` setting (comfortable/compact) on components rather than a per-brand scale."""),
    U("Julien says it was for the data tables exactly, denser layout for B2B clients who look at 200 rows. so density it is, later"),
    A("Then note it in the v2 backlog: a `density` prop on DataTable and form controls, and keep the Pro scale until it lands."),
)

S.add(
    "icons-01", "2026-01-30 12:15",
    U("""the icon sprite is now too big imo:

```
$ ls -la packages/icons/dist/
-rw-r--r--  1 ines  staff  187344 Jan 30 12:02 sprite.svg
-rw-r--r--  1 ines  staff   41208 Jan 30 12:02 sprite.svg.gz
-rw-r--r--  1 ines  staff   12873 Jan 30 12:02 index.mjs
```

41KB gzipped and it's loaded on every page. the home page uses 19 icons"""),
    A("""41 KB gzip for something mostly unused is worth fixing, especially since it competes with the LCP image.

Options:

1. **Inline SVG components per icon** (`<IconHeart />` compiled from each SVG with SVGR): tree-shaken, each page ships
   only what it imports. The cost is some JS per icon (~300-600 bytes) and no caching across pages. With 19 icons on
   the home page that's ~8 KB, better than 41.
2. **Split sprites by area**: a "core" sprite with the ~30 icons used everywhere (chevrons, close, cart, heart,
   search), loaded everywhere; area sprites loaded on demand.
3. **Keep the sprite, load it lazily** after LCP: the icons pop in slightly late, which hurts CLS if sizes aren't
   reserved.

For a design system, option 1 is what most teams end up with, because consumers get the right thing by default. I'd
keep the sprite for one version, deprecated, for consumers who reference icons by name from a CMS."""),
    U("option 1 makes sense for v2. the CMS thing is real, marketing uses icon names in the CMS"),
    A("For the CMS case you can ship a small `IconByName` component that lazy-loads icons with a dynamic `import()` from a name map; the CMS-driven blocks are usually below the fold, so the lazy load is invisible."),
)

S.add(
    "ab-01", "2026-04-09 14:40",
    U("""data team ran the A/B test on the new ProductCard (v2 design, bigger image, price above title). they gave me
this from BigQuery, can you help me read it, I'm not a stats person

```
SELECT variant, COUNT(DISTINCT session_id) AS sessions,
       COUNTIF(added_to_cart) AS atc, SAFE_DIVIDE(COUNTIF(added_to_cart), COUNT(DISTINCT session_id)) AS atc_rate
FROM analytics.productcard_ab_2026_03
GROUP BY variant;

+---------+----------+-------+----------+
| variant | sessions | atc   | atc_rate |
+---------+----------+-------+----------+
| control |   184213 | 10129 | 0.05499  |
| new     |   183977 | 10871 | 0.05909  |
+---------+----------+-------+----------+
```"""),
    A("""Reading it:

- Both groups got about the same traffic (184k sessions each), which is what you want from a 50/50 split.
- Add-to-cart rate: **5.50% for control, 5.91% for the new card**. That's an absolute difference of 0.41 points, or
  a **relative uplift of about 7.5%**.

Is it real or noise? With these sizes, a two-proportion z-test:

- pooled rate p ≈ (10129 + 10871) / (184213 + 183977) ≈ 0.05704
- standard error ≈ sqrt(p(1-p)(1/184213 + 1/183977)) ≈ 0.000764
- z ≈ 0.00410 / 0.000764 ≈ **5.4**

A z of 5.4 is far beyond the usual 1.96 threshold (p-value well under 0.0001), so the difference is very unlikely to
be chance.

Caveats worth asking the data team about:
- **Was the test run for full weeks?** Weekday/weekend behaviour differs.
- **Add to cart isn't purchase.** A bigger image might increase adds without increasing orders. Ask for conversion
  to order and revenue per session too.
- **Sessions vs users**: if one user has several sessions, counts aren't fully independent; usually fine at this
  scale."""),
    U("it ran 3 weeks, march 9 to 29. they'll send revenue per session tomorrow"),
    U("""revenue per session came in:

```
| variant | rev_per_session_eur |
|---------|---------------------|
| control | 3.82                |
| new     | 4.01                |
```

so +5%?"""),
    A("""About **+5.0%** (4.01 / 3.82 ≈ 1.050). Revenue per session is noisier than add-to-cart rate (a few large
orders of sofas move it a lot), so ask them for a confidence interval on it; but with add-to-cart up 7.5% and revenue
per session up 5% in the same direction, the new ProductCard looks like a genuine improvement."""),
    U("they say CI is +1.2% to +8.9%. shipping it to 100% next week"),
)

S.add(
    "docs-01", "2026-04-30 10:20",
    U("the docs site (it's a Storybook + a few MDX pages) has no search and people complain. cheapest option?"),
    A("""A few options, from cheapest:

1. **Storybook's built-in sidebar search**: it already searches story and docs titles (Ctrl+K / `/`). If people
   don't know about it, a hint in the header may be enough.
2. **Pagefind**: a static search index built at build time over the generated HTML, no server, no account. Run
   `npx pagefind --site storybook-static` after `build-storybook` and add its UI to a docs page. Works offline too.
3. **Algolia DocSearch**: free for open-source docs, but your docs are internal, so it would be a paid plan.

For an internal Storybook, Pagefind is the one I'd try: full-text search across MDX pages and component docs, five
minutes to set up. The catch: Storybook renders docs in an iframe, so you'd index the `iframe.html?viewMode=docs`
pages; a small script listing the docs entries from `index.json` gives Pagefind the URLs."""),
    U("pagefind it is. Hugo can do it when he starts"),
    A("Good first task for an intern: contained, visible, and he'll learn how the docs are built along the way."),
)

S.add(
    "carousel-01", "2026-05-07 15:00",
    U("implement the pause control on Carousel per what we discussed for the audit. auto-play is a prop `autoPlay?: number` (ms). go"),
    A("Let me read the current Carousel first."),
    A("""```
$ sed -n 1,60p packages/tissage/src/Carousel/Carousel.tsx
export type CarouselProps = { slides: Slide[]; autoPlay?: number; label: string };

export function Carousel({ slides, autoPlay, label }: CarouselProps) {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!autoPlay) return;
    const t = setInterval(() => setIndex((i) => (i + 1) % slides.length), autoPlay);
    return () => clearInterval(t);
  }, [autoPlay, slides.length]);
  ...
```

The interval runs unconditionally. I'll add a `paused` state, set by the button, by focus inside the carousel and
by hover, and skip auto-play entirely under `prefers-reduced-motion: reduce`."""),
    A("""```diff
+  const reducedMotion = usePrefersReducedMotion();
+  const [userPaused, setUserPaused] = useState(false);
+  const [interacting, setInteracting] = useState(false);
+  const playing = Boolean(autoPlay) && !reducedMotion && !userPaused && !interacting;
   useEffect(() => {
-    if (!autoPlay) return;
+    if (!playing) return;
     const t = setInterval(() => setIndex((i) => (i + 1) % slides.length), autoPlay);
     return () => clearInterval(t);
-  }, [autoPlay, slides.length]);
+  }, [playing, autoPlay, slides.length]);
```

And the button, first in the carousel's tab order:

```tsx
{autoPlay && !reducedMotion && (
  <button type="button" className={styles.playPause} onClick={() => setUserPaused((p) => !p)}>
    {userPaused ? 'Lire le carrousel' : 'Mettre en pause le carrousel'}
  </button>
)}
```

Focus and hover set `interacting` via `onFocus`/`onBlur` (checking `relatedTarget` so moving focus between slides
doesn't flicker) and `onMouseEnter`/`onMouseLeave`. Running the tests."""),
    A("""```
$ pnpm vitest run src/Carousel
 ✓ src/Carousel/Carousel.test.tsx  (9 tests) 301ms
   ✓ Carousel > pauses when the pause button is pressed
   ✓ Carousel > pauses while focus is inside
   ✓ Carousel > does not auto-play with prefers-reduced-motion

 Test Files  1 passed (1)
      Tests  9 passed (9)
```

Three new tests, all passing. The label changes instead of `aria-pressed`, since "Mettre en pause" / "Lire" reads
more naturally than a pressed toggle."""),
    U("nice. the button should be visible only on focus? marketing will hate a visible button on the hero"),
    A("""I'd push back on that one: WCAG 2.2.2 needs a mechanism to pause, and RGAA auditors check that it's **visible**
for sighted mouse users too, not only keyboard users. A compromise designers usually accept: a small round icon
button (pause ⏸ / play ▶) in a corner of the hero with the text as its accessible name, styled like the slide dots.
It's visible but discreet."""),
    U("ok icon button, Sophie will style it. commit"),
    A("""```
$ git commit -qam "carousel: pause control, pause on focus/hover, no auto-play with reduced motion (RGAA 13.8)"
$ git log --oneline -1
e41c9b0 carousel: pause control, pause on focus/hover, no auto-play with reduced motion (RGAA 13.8)
```"""),
)

S.add(
    "hugo-01", "2026-05-25 17:20",
    U("""Hugo's first PR, the pagefind search. it works but the code is... intern code. e.g.

```js
// scripts/index-docs.js
const fs = require('fs')
let data = JSON.parse(fs.readFileSync('storybook-static/index.json'))
let urls = []
for (let k in data.entries) { if (data.entries[k].type == 'docs') { urls.push('iframe.html?viewMode=docs&id=' + data.entries[k].id) } }
fs.writeFileSync('urls.txt', urls.join('\\n'))
```

how do I review this without crushing him? it's his first week"""),
    A("""The script works, and it's short. For a first PR, I'd separate "must change" from "teaching":

**Must change (blocking), one or two things at most:**
- `urls.txt` is written at the repo root: it should go into the build output (or a temp dir) and be git-ignored,
  otherwise it'll end up committed.

**Teaching (non-blocking), phrased as suggestions with the why:**
- `Object.values(data.entries).filter(e => e.type === 'docs')` reads more clearly than the `for...in` loop, and
  `for...in` also walks inherited properties.
- `===` instead of `==`: your ESLint config will flag it anyway, so show him how to run the linter locally.
- `const` instead of `let` where nothing is reassigned.
- The repo is ESM: `import fs from 'node:fs'`.

**And say what's good**: it works, it's small, and it solves a problem people complained about. Comment that
explicitly.

A good habit with interns: do the first review together on a call, live, instead of 12 written comments. He'll
learn more and it feels like pairing rather than grading."""),
    U("did it on a call. he fixed everything in 20 min. search is live on the docs"),
)

S.add(
    "ts-01", "2026-06-18 11:05",
    U("bump typescript 5.4 -> 5.8 in the monorepo. go, tell me what breaks"),
    A("Let me bump it and run the type check across the workspace."),
    A("""```
$ pnpm -r up typescript@5.8.3 && pnpm -r exec tsc --noEmit
packages/tissage/src/DataTable/useSort.ts:27:9 - error TS2322: Type 'string | undefined' is not assignable to type 'string'.

27         return a[key].localeCompare(b[key]);
           ~~~~~~

apps/backoffice/src/orders/OrderFilters.tsx:88:34 - error TS2345: Argument of type 'Set<string>' is not assignable to parameter of type 'string[]'.

Found 2 errors in 2 files.
```

Two errors. The first comes from stricter narrowing of indexed access in 5.5+: `a[key]` can be `undefined` when the
row type has optional fields. The second is in the back office, not Tissage."""),
    A("""For `useSort.ts`, sorting should handle missing values explicitly anyway (they should go last):

```ts
const av = a[key], bv = b[key];
if (av == null) return bv == null ? 0 : 1;
if (bv == null) return -1;
return String(av).localeCompare(String(bv), 'fr');
```

I also passed `'fr'` to `localeCompare`, so "Écru" sorts with the E's instead of after Z.

For the back office one, `[...selected]` converts the Set. It's their code; I can fix it in the same PR or leave it
for them."""),
    U("fix both, it's one line. and good catch on the accents, Atelier has a lot of é in product names"),
    A("""```
$ pnpm -r exec tsc --noEmit
$ pnpm vitest run --reporter=dot
·········································································
 Test Files  71 passed (71)
      Tests  512 passed (512)
$ git commit -qam "typescript 5.8: sort missing values last with fr collation, Set spread in order filters"
```

Clean type check, 512 tests passing."""),
    U("👍"),
)

S.add(
    "rsc-01", "2026-06-24 16:30",
    U("the shop team started their RSC experiment with the Next app router. Tissage components blow up in server components:"),
    U("""```
 ⨯ ./node_modules/@maisonnette/tissage/dist/index.mjs
Error:
  × You're importing a component that needs useState. It only works in a Client Component but none of its parents
  │ are marked with "use client", so they're Server Components by default.
 Import trace for requested module:
  ./node_modules/@maisonnette/tissage/dist/index.mjs
  ./app/p/[slug]/page.tsx
```

they only use Badge and Price on that page which have no state"""),
    A("""The problem is the single bundle: `dist/index.mjs` contains every component, including ones with `useState`, so
importing Badge pulls in the whole module, and Next sees hooks in it.

Two changes make Tissage RSC-friendly:

1. **Preserve modules in the build** so each component is its own file: in Vite's library config,
   `rollupOptions.output.preserveModules: true` (and `preserveModulesRoot: 'src'`). Then the shop's bundler only
   evaluates the components actually imported.
2. **Mark the interactive components** with `'use client'` at the top of their entry file (Modal, Combobox,
   Carousel, DatePicker, Tabs...). Rollup strips directives by default and warns about it; the
   `rollup-preserve-directives` plugin keeps them.

Stateless components (Badge, Price, Text, Icon) then work in server components, and interactive ones work too, as
client components embedded in the server tree. This is where the vanilla-extract move pays off: with
styled-components, even Badge would have needed a client boundary."""),
    U("that's the v2.2 headline then. I'll write it up for the roadmap, my first as tech lead next week"),
)

S.add(
    "tbt-01", "2025-12-08 11:50",
    U("""post-freeze, looking at TBT on the product page (490ms in lab). performance panel summary of the main thread
during load, mobile throttling:

```
Main thread, 0 - 6000 ms
  Scripting ............ 1,912 ms
    gtm.js ................ 402 ms   (www.googletagmanager.com)
    hydrateRoot ........... 611 ms   (framework-3f2a.js)
    styled-components ..... 188 ms   (inject / generateAndInjectStyles)
    reviews-widget.js ..... 297 ms   (cdn.trustreviews.example)
    other ................. 414 ms
  Rendering ............   304 ms
  Painting .............    97 ms
Long tasks: 9 (longest 388 ms, hydrateRoot)
```

what would you attack first"""),
    A("""In order of value for effort:

1. **The reviews widget (297 ms)**: it's below the fold on a product page. Load it when its container comes near
   the viewport (IntersectionObserver) or on idle (`requestIdleCallback`), not at load. That alone removes a long
   task and is usually a one-day change.
2. **GTM (402 ms)**: the tags inside GTM matter more than GTM itself. Audit the container with marketing: tags
   firing on "All Pages" at "Page View" that could fire on "Window Loaded" instead. Often a third of them are unused
   campaigns.
3. **Hydration (611 ms, longest task 388 ms)**: the biggest number but the hardest. Hydrating the whole page at once
   blocks the thread; React 18's selective hydration helps if below-the-fold parts are wrapped in `<Suspense>`
   boundaries, so they hydrate later and in smaller chunks.
4. **styled-components (188 ms)**: runtime style injection during hydration. That's a cost v2 removes entirely with
   vanilla-extract, so I wouldn't optimise it now; it's a good number to cite in the v2 case, though."""),
    U("I'll cite the 188ms in the ADR for sure. reviews widget lazy load is a ticket for the shop team"),
    A("Also worth recording the before numbers now (this table), so the after-v2 measurement in the same conditions is comparable."),
)

S.add(
    "fibre-01", "2026-03-17 18:30",
    U("""FINALLY internet at home, the technician came this morning as planned. 10 days on 4G, never again

```
$ speedtest
   Server: Orange - Annecy (id: 29542)
      ISP: Orange
  Latency:     3.41 ms   (0.52 ms jitter)
 Download:   938.72 Mbps (data used: 1.1 GB)
   Upload:   702.15 Mbps (data used: 1.0 GB)
Packet Loss:     0.0%
```

the wifi in the back bedroom (my office) is bad though, thick old walls. mesh or powerline?"""),
    A("""With thick old stone walls, which are common in Annecy's old town, Wi-Fi between rooms often fails even with
mesh, because the mesh nodes talk to each other over Wi-Fi through the same walls.

- **Ethernet if at all possible**: a flat cable along the skirting board or under a door. For a desk you work at all
  day, it beats anything wireless.
- **Powerline** works well in old buildings *if* both sockets are on the same electrical circuit and not on a power
  strip; speeds vary from 100 to 500 Mbps in practice. Cheap to try, easy to return.
- **Mesh with a wired backhaul** (nodes linked by Ethernet) is the best Wi-Fi option, but needs the cable anyway.
- **Mesh over Wi-Fi**: only if one node can sit where it sees both rooms, e.g. in a doorway.

For video calls and pushing Docker images, a cable or powerline to the desk is what I'd do first."""),
    U("powerline it is, the hallway has a direct line. Praline will sit on the adapter probably"),
)

S.add(
    "swimclub-01", "2026-03-30 08:00",
    U("btw found a swim club in Annecy for the lake crossing training: they swim at the Jean Régis pool tuesday and friday at 6:45am, and from May in the lake on saturday mornings. 6:45 is brutal but it fits with the train days"),
    A("""Early sessions are hard the first two weeks, then they become the best part of the day for a lot of people. With
the Tuesday train at 7:04 that won't work on Tuesdays though, so you'd do Fridays plus a session of your own; worth
checking whether they have an evening slot too.

The Saturday lake sessions from May are the most valuable part for the crossing: open-water practice in a group,
with people who know the lake."""),
    U("oh right tuesday is a train day. fridays + saturdays then, and I swim alone in the evening on wednesday"),
)

S.add(
    "bisect-01", "2026-04-14 10:00",
    U("(on holiday but checking slack, sorry) the back office team says DataTable sorting broke somewhere between 2.0.0 and 2.0.3. can you walk me through finding it quickly with git bisect? I have 20 min in the hotel lobby"),
    A("""Sure, with a test that reproduces it, bisect does the work for you:

```
git bisect start @maisonnette/tissage@2.0.3 @maisonnette/tissage@2.0.0
git bisect run pnpm vitest run src/DataTable/sort.test.tsx
```

`git bisect run` marks each commit good or bad from the command's exit code, so write (or ask someone to write) a
failing test for the sort bug first, and run it against 2.0.3 to check it fails."""),
    U("""Yanis wrote the test, ran it:

```
$ git bisect run pnpm vitest run src/DataTable/sort.test.tsx
running  'pnpm' 'vitest' 'run' 'src/DataTable/sort.test.tsx'
...
Bisecting: 3 revisions left to test after this (roughly 2 steps)
...
c9e04d1f7a2b is the first bad commit
commit c9e04d1f7a2b
Author: Yanis Haddad <yanis.haddad@maisonnette.fr>
Date:   Wed Apr 8 16:42:10 2026 +0200

    datatable: memoize sorted rows

 packages/tissage/src/DataTable/useSort.ts | 9 ++++++---
bisect found first bad commit
```"""),
    A("""There it is: a memoization of the sorted rows. The usual bug with that change is a `useMemo` dependency list that
misses the sort direction or the sort key, so toggling the direction returns the cached rows. Have Yanis check that
`[rows, sortKey, direction]` are all in the dependencies.

And `git bisect reset` to get back to your branch."""),
    U("it was exactly that, direction missing. he's shipping 2.0.4. back to my ramen 🍜"),
)

S.add(
    "roadmap-01", "2026-06-29 13:15",
    U("writing my first roadmap doc as tech lead, for Q3-Q4. can you give me a structure? audience is Aïcha, the platform group, and the three consumer teams"),
    A("""A structure that works for a mixed audience, one page if you can:

1. **Where we are** (3-4 lines): v2 and v2.1 shipped, the RGAA rate, adoption (which consumers are on which
   version).
2. **Goals for the half**, as outcomes, each with how you'll know: e.g. "The shop's product page renders Tissage
   components in server components" (measured by the RSC pilot page shipping), "RGAA 100% on Tissage-owned
   criteria", "Pro back office on the density setting".
3. **What we'll build** for each goal, in order, with rough quarters, not dates.
4. **What we won't do** this half, explicitly. It prevents the same requests from coming back every week.
5. **What we need from others**: e.g. the shop team's time for the RSC pilot, design time from Sophie and Clara.
6. **Risks**: e.g. the team loses the intern in August; Next's RSC support for CSS-in-build-time libraries.

Send it as a draft to Aïcha first, then to the consumer teams with an open comment period of a week."""),
    U("'what we won't do' is smart. the number one thing we won't do: a Vue version of tissage, someone asks every quarter"),
    A("Then put it first in that section, with the reason in one line (no Vue consumer, and two frameworks would halve what the team can ship). A written no is easier to point at than a repeated one."),
    U("ok drafting now. team for the doc: me (lead), Yanis, Sophie, Clara, + Hugo until 14 august"),
    A("""Good. One suggestion: put names next to goals as owners (Yanis on RSC and forms, Clara and Sophie on density and
dark-mode illustrations, you on accessibility and the roadmap itself); consumer teams then know whom to ask."""),
)

S.add(
    "ve-03", "2026-02-16 17:25",
    U("stack / inline layout components need responsive props like `gap={{ mobile: 2, desktop: 4 }}`. with vanilla-extract, sprinkles?"),
    A("""Yes, `@vanilla-extract/sprinkles` is made for this: it generates atomic classes for each property × value ×
breakpoint at build time, and a typed function that picks them.

```ts
// sprinkles.css.ts
import { defineProperties, createSprinkles } from '@vanilla-extract/sprinkles';
import { vars } from './theme.css';

const responsive = defineProperties({
  conditions: { mobile: {}, tablet: { '@media': 'screen and (min-width: 768px)' }, desktop: { '@media': 'screen and (min-width: 1024px)' } },
  defaultCondition: 'mobile',
  properties: { gap: vars.space, flexDirection: ['row', 'column'], alignItems: ['start', 'center', 'end', 'stretch'] },
});

export const sprinkles = createSprinkles(responsive);
```

Then `sprinkles({ gap: { mobile: 2, desktop: 4 } })` returns class names. Watch the CSS size: each property ×
value × condition is a class, so keep the property list short."""),
    U("how big does it get"),
    A("For the three properties above: gap has 3 values in your sketch (2, 3, 4), so 3 × 3 conditions = 9 classes, plus 2 × 3 and 4 × 3 for the others: 27 classes, under 1 KB gzipped. It grows quickly if you add colours (every colour × every condition), so keep colours out of sprinkles."),
    U("ok. no colours in sprinkles, noted in the guide"),
    A("Also add `display` and `padding` only if you find yourself needing them in three or more components; otherwise a plain `style` in the component is clearer."),
    U("👌"),
)


ASKED: list[Question] = [
    ("ssu-01", "single-session-user", "What did I name the cat we adopted?",
     "Praline (Mathis wanted Biscotte).", {"cat-01": ["we named her Praline"]}),
    ("ssu-02", "single-session-user", "How many tests did my component library have when it moved from Jest to Vitest?",
     "412 tests (409 passed and 3 failed on the first Vitest run).", {"jest-01": ["Tests  3 failed | 409 passed (412)"]}),
    ("ssu-03", "single-session-user", "What does my partner do for a living?",
     "He is a research engineer in materials, at an engineering school in Annecy (from March 2026).",
     {"move-01": ["he's a research engineer in materials"]}),
    ("ssu-04", "single-session-user", "What field is the user's sister's PhD in?",
     "Glaciology: how surface debris on Alpine glaciers changes melt rates.", {"sister-01": ["it's in glaciology"]}),
    ("ssu-05", "single-session-user", "What download speed did my home fibre reach when it was installed?",
     "About 939 Mbps (938.72 Mbps down, 702 Mbps up).", {"fibre-01": ["Download:   938.72 Mbps"]}),
    ("ssu-06", "single-session-user", "What was the user's father's job before he retired?",
     "Maths teacher, for 38 years at the lycée Blaise-Pascal (Clermont-Ferrand).",
     {"xmas-01": ["38 years as a maths teacher"]}),
    ("ssa-01", "single-session-assistant", "What contrast ratio did you compute for the muted text token in dark mode?",
     "About 6.4:1 (#A39E97 on #1C1B1A), which passes AA.", {"dark-01": ["about 6.4:1"]}),
    ("ssa-02", "single-session-assistant",
     "In the combobox pattern you described to the user, where does DOM focus stay, and what tells the screen reader which option is highlighted?",
     "Focus always stays on the input; aria-activedescendant on the input points to the highlighted option's id.",
     {"a11y-02": ["Focus stays on the input, always."]}),
    ("ssa-03", "single-session-assistant",
     "What relative uplift in add-to-cart rate did you compute for the user's new ProductCard, and what z value?",
     "About 7.5% relative (5.50% to 5.91%), z of about 5.4.", {"ab-01": ["relative uplift of about 7.5%"]}),
    ("ssa-04", "single-session-assistant", "Why did my euro price test fail after the Node 22 upgrade, according to you?",
     "The fr-FR format uses a narrow no-break space (U+202F) as thousands separator and a no-break space before €, "
     "and Node 22's newer ICU changed those characters.", {"node-01": ["narrow no-break space"]}),
    ("ms-01", "multi-session", "How many people joined the user's design-system team in 2026, counting interns?",
     "Three: Yanis (frontend dev) and Clara (designer) in February, and Hugo, an intern, from 18 May to 14 August.",
     {"team-01": ["Yanis, a frontend dev"], "intern-01": ["Hugo, 2nd year"]}),
    ("ms-02", "multi-session", "By how many points did our shop's RGAA compliance rate rise between the two audits?",
     "27 points: from 62% (November 2025) to 89% (May 2026).",
     {"a11y-01": ["Result: 62% compliance"], "a11y-03": ["89%!!"]}),
    ("ms-03", "multi-session",
     "By how much did the product page's Lighthouse LCP improve between November and after the shop moved to v2?",
     "By 1.4 s: from 3.8 s to 2.4 s.",
     {"perf-01": ['"displayValue": "3.8 s"'], "perf-02": ["Largest Contentful Paint ...... 2.4 s"]}),
    ("ms-04", "multi-session", "Which tools have I replaced in the design system's toolchain, and with what?",
     "webpack with Vite, Jest with Vitest, yarn 1 with pnpm, styled-components with vanilla-extract, and Chromatic "
     "with Playwright screenshot tests.",
     {"vite-02": ["the vite migration is done and merged"], "jest-01": ["moved the suite to vitest"],
      "pnpm-01": ["yarn 1 -> pnpm"], "release-01": ["all 38 components on vanilla-extract"],
      "chroma-02": ["we're leaving Chromatic"]}),
    ("ms-05", "multi-session", "Which two family members did the user get help writing something for, and for what?",
     "Their father (a speech for his retirement party) and their sister Léa (a card for her PhD defence).",
     {"xmas-01": ["say a few words"], "sister-01": ["write her a card"]}),
    ("ms-06", "multi-session", "What CI speed-ups did I get from the pnpm switch and from Turborepo?",
     "pnpm with the store cache: install from 2m40 to 48s; Turborepo's remote cache: CI per PR from 14 to 6 minutes.",
     {"pnpm-01": ["install time in CI went from 2m40 to 48s"], "turbo-01": ["CI per PR is down to 6 min"]}),
    ("ms-07", "multi-session",
     "How many components did Yanis migrate for v2, and how many TextField tests had he written in his first week?",
     "11 of the 38 components; 14 TextField tests.",
     {"release-01": ["Yanis migrated 11 of the 38"], "tf-01": ["14 tests for TextField"]}),
    ("ms-08", "multi-session", "How long is my train ride to the Lyon office, and on which days do I make it?",
     "1h55 (TER Annecy to Lyon Part-Dieu, the 7:04 train), on Tuesdays and Thursdays.",
     {"move-01": ["Tuesdays and Thursdays"], "move-02": ["1h55"]}),
    ("ms-09", "multi-session", "Was the user's pace per 100 m faster in the lake crossing than in their first lake swim?",
     "No, slightly slower: about 2:29 per 100 m in the crossing (2.5 km in 1h02) against 2:24 in the first lake swim "
     "(2 km in 48 min).",
     {"swim-02": ["I swam 2 km in 48 min"], "swim-03": ["2.5 km in 1h02min"]}),
    ("ku-01", "knowledge-update", "Which city do I live in now?",
     "Annecy (the old town), since 7 March 2026; before that Villeurbanne.",
     {"intro-01": ["I live in Villeurbanne"], "move-02": ["we moved on saturday!! Annecy"]}),
    ("ku-02", "knowledge-update", "Who is the user's manager now?",
     "Aïcha Benali, since 5 January 2026 (before her, Julien).",
     {"intro-01": ["Julien (my manager"], "mgr-01": ["our new manager will be Aïcha Benali"]}),
    ("ku-03", "knowledge-update", "When did Tissage v2 ship, and what date had been planned first?",
     "31 March 2026; it was first planned for 15 February.",
     {"ve-01": ["v2 target release date: February 15"], "ds-03": ["v2 moves from Feb 15 to March 31"],
      "release-01": ["WE SHIPPED v2"]}),
    ("ku-04", "knowledge-update", "What does the user's team use for visual regression tests now?",
     "Playwright's toHaveScreenshot() against the built Storybook, in their own CI (they left Chromatic).",
     {"chroma-01": ["Chromatic bill"], "chroma-02": ["we're leaving Chromatic"]}),
    ("ku-05", "knowledge-update", "What is my bundle budget for the product page's initial JS now?",
     "150 KB gzipped, enforced in CI with size-limit (it was an informal 180 KB).",
     {"perf-02": ["she suggests 150", "set it to 150"]}),
    ("ku-06", "knowledge-update", "Which Node version does the user's monorepo run on now?",
     "Node 22 (22.14), upgraded from Node 18.", {"node-01": ["the repo is on node 22 now"]}),
    ("ku-07", "knowledge-update", "Where do I take pottery classes now?",
     "At a studio in Annecy-le-Vieux, on Thursday evenings (before: a studio in the Croix-Rousse, Lyon, on Wednesdays).",
     {"pottery-01": ["wednesday evenings at a little studio in the Croix-Rousse"],
      "pottery-02": ["found a pottery studio in Annecy"]}),
    ("ku-08", "knowledge-update", "What is my job title now?",
     "Senior frontend engineer (from 1 July 2026), and tech lead of the design system team.",
     {"intro-01": ["I'm a frontend engineer on the design system team"],
      "review-01": ["I'm promoted to senior frontend engineer"]}),
    ("ku-09", "knowledge-update", "On which days does the user swim with a club now?",
     "Fridays (pool, 6:45) and Saturdays (the lake) with a club in Annecy, plus a Wednesday evening swim alone; "
     "before the move they swam with a club in Lyon.",
     {"swim-01": ["I joined a swim club in Lyon"], "swimclub-01": ["fridays + saturdays then"]}),
    ("tmp-01", "temporal-reasoning", "How many days did my Vite migration take, from starting to merging?",
     "13 days (14 to 27 October 2025).",
     {"vite-01": ["starting the vite migration today"], "vite-02": ["the vite migration is done and merged"]}),
    ("tmp-02", "temporal-reasoning", "Which came first: my move to Annecy or the v2 release?",
     "The move (Saturday 7 March 2026), 24 days before v2 shipped (31 March 2026).",
     {"move-02": ["we moved on saturday"], "release-01": ["WE SHIPPED v2"]}),
    ("tmp-03", "temporal-reasoning", "How many days did the user work on 4G after moving?",
     "10 days, from the move on 7 March to the fibre installation on 17 March 2026.",
     {"move-02": ["working on 4G from my phone"], "fibre-01": ["10 days on 4G"]}),
    ("tmp-04", "temporal-reasoning", "How many days after getting back from Japan did I get the RGAA re-audit results?",
     "9 days (back on 26 April, results on 5 May 2026).",
     {"japan-01": ["April 11 to April 26"], "a11y-03": ["results came in today"]}),
    ("tmp-05", "temporal-reasoning", "Which came first for the user: their father's retirement party or the eye exam?",
     "The party (10 January 2026), five days before the ophthalmologist (15 January).",
     {"retire-01": ["the party for my dad was yesterday"], "glasses-02": ["saw the ophthalmologist yesterday"]}),
    ("tmp-06", "temporal-reasoning", "How many weeks before the lake crossing did I sign up for it?",
     "About 19 weeks (131 days: 9 February to 20 June 2026).",
     {"swim-01": ["lake crossing on June 20"], "swim-03": ["lake crossing on saturday"]}),
    ("tmp-07", "temporal-reasoning", "How long after the new manager started did the user learn of their promotion?",
     "About five months (149 days: 5 January to 3 June 2026).",
     {"mgr-01": ["she starts with us on January 5"], "review-01": ["mid-year review with Aïcha"]}),
]


if __name__ == "__main__":
    write(TARGET, S, questions(S, ASKED, name="heldout9", seed=9, question_date=ASKED_ON, others=4))
