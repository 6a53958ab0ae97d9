// Keyboard and accessible names in the page's widgets.
//
// Keyboard in a hand of cards (a `.sk-hand-box` of `.sk-handcard` buttons): the hand is one
// Tab stop, and the arrow keys move focus among its cards (a "roving" tabindex). Arrows only
// move focus; Enter or Space on a card presses it (selects or unselects it) as on any button.
// Home and End go to the first and last card. Cards that are disabled or hidden are skipped.
//
// The cards are ipywidgets ToggleButtons whose views the kernel adds, removes and disables at
// any time, so after every change in the page each hand is put right again: exactly one of its
// usable cards is reachable with Tab (the one focused last, while it is usable; else the first).

const HAND = '.sk-hand-box';
const CARD = '.sk-handcard';
const NEXT = new Set(['ArrowRight', 'ArrowDown']);
const PREVIOUS = new Set(['ArrowLeft', 'ArrowUp']);

function usable(card) {
  return !card.disabled && card.offsetParent !== null;
}

function cardsOf(hand) {
  return Array.from(hand.querySelectorAll(CARD)).filter((card) => card.closest(HAND) === hand);
}

// Make `current` the hand's one Tab stop.
function rove(hand, current) {
  for (const card of cardsOf(hand)) {
    const index = card === current ? 0 : -1;
    if (card.tabIndex !== index) card.tabIndex = index;
  }
  hand.slothCurrent = current;
}

// After a change in the page a hand is put right without reading the layout (offsetParent would
// make the browser lay the page out again for each of a move's many widget updates): a disabled
// card is skipped; a hidden hand's cards take no focus anyway, and showing the hand again is
// itself a change that settles it once more.
function settle(hand) {
  const cards = cardsOf(hand).filter((card) => !card.disabled);
  if (cards.length === 0) return;
  const focused = cards.find((card) => card === document.activeElement);
  const kept = cards.includes(hand.slothCurrent) ? hand.slothCurrent : null;
  rove(hand, focused || kept || cards[0]);
}

// A folding section (common.Disclosure: "Ask why", "New game / seats") opens with its toggle
// button, which Tab reaches and Enter or Space presses; screen readers are also told whether it
// is open (aria-expanded, from the button's pressed state), which ipywidgets does not say.
const SECTION_TOGGLE = '.sk-disclosure-toggle';

function nameSectionTitles() {
  for (const toggle of document.querySelectorAll(SECTION_TOGGLE)) {
    const open = String(toggle.classList.contains('mod-active'));
    if (toggle.getAttribute('aria-expanded') !== open) toggle.setAttribute('aria-expanded', open);
  }
}

function onKeyDown(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const card = event.target instanceof Element ? event.target.closest(CARD) : null;
  const hand = card && card.closest(HAND);
  if (!hand) return;
  const cards = cardsOf(hand).filter(usable);
  const index = cards.indexOf(card);
  if (index < 0 || cards.length === 0) return;
  let target = null;
  if (NEXT.has(event.key)) target = cards[(index + 1) % cards.length];
  else if (PREVIOUS.has(event.key)) target = cards[(index - 1 + cards.length) % cards.length];
  else if (event.key === 'Home') target = cards[0];
  else if (event.key === 'End') target = cards[cards.length - 1];
  if (!target) return;
  event.preventDefault();  // no page scroll
  rove(hand, target);
  target.focus();
}

function onFocusIn(event) {
  const card = event.target instanceof Element ? event.target.closest(CARD) : null;
  const hand = card && card.closest(HAND);
  if (hand) rove(hand, card);
}

// A slider's handle is what a keyboard or screen reader user operates (role="slider"), but
// ipywidgets names only the widget around it (its description label, its tooltip as title): the
// handle gets that name.
function nameSliders() {
  for (const handle of document.querySelectorAll('.noUi-handle:not([aria-label]):not([aria-labelledby])')) {
    const widget = handle.closest('.widget-slider, .jupyter-widget-slider, .widget-hslider, .widget-vslider');
    if (!widget) continue;
    const label = widget.querySelector('.widget-label');
    const name = (label && label.textContent.trim()) || widget.getAttribute('title') || '';
    if (name) handle.setAttribute('aria-label', name);
  }
}

// A slider whose widget carries the class sk-coarse-slider must not say its value as a number
// (Sprint!'s cut, SP-7: a number would count for you). Its handle says a few coarse bands in
// words instead, and its aria-valuenow/min/max say only the band (0 the top .. 2 the bottom of a
// vertical slider), rewritten each time the slider writes its own numbers.
const COARSE_WORDS = ['near the top', 'about halfway', 'near the bottom'];

function coarseSliders() {
  for (const handle of document.querySelectorAll('.sk-coarse-slider .noUi-handle')) {
    const raw = handle.getAttribute('aria-valuenow');
    const min = parseFloat(handle.dataset.skMin || handle.getAttribute('aria-valuemin'));
    const max = parseFloat(handle.dataset.skMax || handle.getAttribute('aria-valuemax'));
    const words = handle.getAttribute('aria-valuetext');
    if (!COARSE_WORDS.includes(words) || raw === null || !/^[0-2]$/.test(raw) || handle.dataset.skRaw !== raw) {
      const value = parseFloat(raw);
      if (Number.isNaN(value) || Number.isNaN(min) || Number.isNaN(max) || max <= min) continue;
      handle.dataset.skMin = String(min);
      handle.dataset.skMax = String(max);
      const down = 1 - (value - min) / (max - min);  // a vertical slider's top is its maximum
      const band = Math.min(2, Math.max(0, Math.floor(down * 3)));
      handle.setAttribute('aria-valuetext', COARSE_WORDS[band]);
      handle.setAttribute('aria-valuemin', '0');
      handle.setAttribute('aria-valuemax', '2');
      handle.setAttribute('aria-valuenow', String(band));
      handle.dataset.skRaw = String(band);
    }
  }
}

export function installAccess(root = document) {
  root.addEventListener('keydown', onKeyDown);
  root.addEventListener('focusin', onFocusIn);
  let pending = false;
  const settleAll = () => {
    pending = false;
    for (const hand of document.querySelectorAll(HAND)) settle(hand);
    nameSliders();
    coarseSliders();
    nameSectionTitles();
  };
  const observer = new MutationObserver(() => {
    if (pending) return;
    pending = true;
    queueMicrotask(settleAll);
  });
  observer.observe(document.body, {
    childList: true, subtree: true, attributes: true, attributeFilter: ['disabled', 'class', 'style', 'aria-valuenow'],
  });
  settleAll();
  return observer;
}
