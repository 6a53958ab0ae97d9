// Replaces the npm package sanitize-html (about 230 KB with postcss and htmlparser2, a third of
// the bundle) for the one thing ipywidgets uses it for: descriptions with
// `description_allow_html`. Same allow-list as @jupyter-widgets/base-manager's
// default_inline_sanitize, done with the browser's own inert parser (<template> content runs
// no scripts and loads no images).

const ALLOWED_TAGS = new Set(['A', 'ABBR', 'B', 'CODE', 'EM', 'I', 'IMG', 'LI', 'OL', 'SPAN', 'STRONG', 'UL']);
const ALLOWED_ATTRIBUTES = { '*': ['class', 'style', 'title'], A: ['href'], IMG: ['src'] };
const SAFE_SCHEMES = ['http', 'https', 'mailto'];

// A relative URL, or an absolute one with a safe scheme (browsers drop tabs and newlines
// inside a URL, and leading spaces and control characters, before reading the scheme).
function safeUrl(value) {
  const scheme = value.replace(/[\t\n\r]/g, '').replace(/^[\x00-\x20]+/, '').match(/^([a-z][a-z0-9+.-]*):/i);
  return !scheme || SAFE_SCHEMES.includes(scheme[1].toLowerCase());
}

function clean(node) {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) continue;
    if (child.nodeType !== Node.ELEMENT_NODE) { child.remove(); continue; }
    if (!ALLOWED_TAGS.has(child.tagName)) {
      // sanitize-html keeps the text of a disallowed tag, except in script-like tags
      if (['SCRIPT', 'STYLE', 'TEXTAREA', 'OPTION', 'NOSCRIPT', 'IFRAME', 'TEMPLATE'].includes(child.tagName)) {
        child.remove();
      } else {
        clean(child);
        child.replaceWith(...Array.from(child.childNodes));
      }
      continue;
    }
    for (const attribute of Array.from(child.attributes)) {
      const name = attribute.name.toLowerCase();
      const allowed = name.startsWith('aria-') || ALLOWED_ATTRIBUTES['*'].includes(name)
        || (ALLOWED_ATTRIBUTES[child.tagName] || []).includes(name);
      const url = name === 'href' || name === 'src';
      if (!allowed || (url && !safeUrl(attribute.value))) child.removeAttribute(attribute.name);
    }
    clean(child);
  }
}

export function inlineSanitize(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  clean(template.content);
  const holder = document.createElement('div');
  holder.append(template.content);
  return holder.innerHTML;
}

export default function sanitizeHtmlUnused() {
  throw new Error('sanitize-html is not bundled; WidgetManager.inline_sanitize uses inlineSanitize');
}
