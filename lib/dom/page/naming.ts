/// <reference lib="dom" />
/**
 * Page-side naming: a derived name for an indexed element that shows none (an icon-only button): see nameOf.
 * Plain functions that close over nothing but each other (lib/dom's composer declares them once in the page
 * script).
 */
import type { Capture, Kept } from "./capture.ts";
import { cap, collapse } from "./text.ts";

/** The words nameOf passes over. */
export type NamingWords = { generic: Set<string>; utility: Set<string> };

/** The words nameOf passes over: generic ones and the first words of utility and generated class names. */
export function namingWords(): NamingWords {
  return {
    /** Words that name no control on their own: icon-set, layout and state class words, image-name fillers. */
    generic: new Set(
      ("btn button buttons icon icons ico ic fa fas far fal fab fad fw solid regular light duotone brands glyphicon " +
        "glyphicons bi mdi material symbols outlined round rounded sharp tone ion ionicon ionicons ti tabler la las " +
        "lab octicon feather lucide heroicon svg img image images sprite sprites ui state default widget component " +
        "wrapper wrap container inner outer content item items el elem element box block inline action actions " +
        "control controls ctrl tool tools toolbar link links clickable pointer cursor active selected hidden visible " +
        "show shown open opened closed disabled enabled focus focused hover on off primary secondary tertiary " +
        "success danger warning info outline ghost flat plain small large sm md lg xl xs xxl mini tiny big circle " +
        "square pill trigger toggler handle main root holder group panel ng js").split(" "),
    ),
    /** First words of utility and generated class names (col-6, p-2, text-center, js-hook, css-1x2y3z, sc-AbCd). */
    utility: new Set(
      ("col row flex grid d p px py pt pb pl pr ps pe m mx my mt mb ml mr ms me w h min max text bg border rounded " +
        "shadow gap justify align items self order float pull push offset overflow position font fw fs lh opacity " +
        "z js ng is has sr visually u space divide ring cursor select transition duration ease animate translate " +
        "scale rotate inset object leading tracking whitespace break truncate sticky fixed absolute relative static " +
        "block inline hidden visible invisible container clearfix css sc jsx emotion styled svelte astro tw chakra " +
        "mui ant el v q ember").split(" "),
    ),
  };
}

/** The words of a class token or file name, lower case (camelCase, -, _, ., @ split). */
export function wordsOf(s: string): string[] {
  return s.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[\s\-_.@+~]+/).filter((w) => w !== "");
}

/** A file name's words that name something: `icons/star-filled.svg` → "star filled"; "" for a hash. */
export function fileName(url: string, generic: Set<string>): string {
  if (/^data:/i.test(url)) return "";
  const hash = url.indexOf("#");
  const part = hash >= 0 ? url.slice(hash + 1) : url.replace(/[?#].*$/, "").replace(/\/+$/, "").replace(/^.*\//, "");
  let base = part;
  try {
    base = decodeURIComponent(part);
  } catch { /* keep it as it is */ }
  if (hash < 0) base = base.replace(/\.[a-z0-9]{2,5}$/i, "");
  const words = wordsOf(base).filter((w) => w.length > 1 && !/\d/.test(w) && !generic.has(w));
  return words.slice(0, 4).join(" ");
}

/** A class token's words when it names something (`fa-trash` → "trash", `swatch-red` → "swatch red"). */
export function classWords(token: string, words: NamingWords): string[] {
  if (token.length > 40 || /[:[\]/()!#%]/.test(token) || /\d/.test(token)) return [];
  // Generated names: short camelCase pieces (styled-components' "bdVaJa").
  if (/[A-Z]/.test(token.slice(1)) && !/[-_]/.test(token) && wordsOf(token).some((w) => w.length < 3)) return [];
  const found = wordsOf(token);
  if (found.length === 0 || words.utility.has(found[0])) return [];
  return [...new Set(found.filter((w) => w.length > 1 && !words.generic.has(w)))];
}

/**
 * The derived name of a nameless element (docs/perception.md): aria-labelledby's text; an ancestor's aria-label
 * or title (three levels up at most, not past one that holds another indexed element); for elements other than
 * fields, what is inside (an svg's or img's aria-label or title, an svg <title>), an image's file name (an img's
 * src, a CSS background-image, an SVG <use> href), a distinctive class token. "" when none.
 */
export function nameOf(c: Capture, indexed: Kept[], el: Element, k: number): string {
  const by = el.getAttribute("aria-labelledby");
  if (by) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const text = collapse(by.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? "").join(" "));
    if (text) return cap(text, c.maxText);
  }
  const before = indexed[k - 1]?.el;
  let j = k + 1;
  while (j < indexed.length && el.contains(indexed[j].el)) j++;
  const after = indexed[j]?.el;
  let n: Element | null = el;
  for (let level = 0; level < 3; level++) {
    n = n.parentElement ?? ((n.parentNode as ShadowRoot | null)?.host ?? null);
    if (!n || n.localName === "body" || n.localName === "html") break;
    if ((before && n.contains(before)) || (after && n.contains(after))) break;
    const own = n.getAttribute("aria-label") ?? n.getAttribute("title");
    if (own && own.trim()) return cap(collapse(own), c.maxText);
  }
  if (c.FIELDS.has(el.localName)) return "";
  // The element and a few elements inside it (an icon button holds one icon, not a page); only the element
  // when it holds indexed elements (a card) or is a scroll box: what is inside them is their content's.
  const near: Element[] = [el];
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_ELEMENT);
  const holds = j > k + 1 || c.scrollBoxes.has(el);
  while (!holds && near.length < 8 && walker.nextNode()) near.push(walker.currentNode as Element);
  for (const e of near.slice(1)) {
    const own = e.getAttribute("aria-label") ?? e.getAttribute("title") ??
      (e.localName === "title" && e.parentElement?.localName === "svg" ? e.textContent : null);
    if (own && own.trim()) return cap(collapse(own), c.maxText);
  }
  for (const e of near) {
    let url = "";
    if (e.localName === "img") url = (e as HTMLImageElement).currentSrc || e.getAttribute("src") || "";
    else if (e.localName === "use") url = e.getAttribute("href") ?? e.getAttribute("xlink:href") ?? "";
    if (!url && e.namespaceURI === "http://www.w3.org/1999/xhtml") {
      const bg = getComputedStyle(e).backgroundImage;
      url = /url\(/.test(bg) ? bg.replace(/^.*?url\(\s*["']?/, "").replace(/["']?\s*\).*$/, "") : "";
    }
    const words = url ? fileName(url, c.words.generic) : "";
    if (words) return words;
  }
  const colour = swatchColour(el);
  if (colour) return colour;
  // The class token of most distinctive words, the element's own first.
  let best: string[] = [];
  for (const e of near) {
    for (const token of Array.from(e.classList)) {
      const words = classWords(token, c.words);
      if (words.length > best.length) best = words;
    }
    if (best.length > 0) break;
  }
  return best.slice(0, 4).join(" ");
}

/**
 * A colour swatch's colour, named (`yellow (#ffff00)`): a colour in its data-value, data-color or data-colour
 * (a hex or rgb()), else, for an empty element (no children, no text) in a palette, its own opaque background
 * colour (a palette: a sibling of the same tag has another opaque background; a row of grey icon boxes is none).
 * "" when it is no swatch.
 */
export function swatchColour(el: Element): string {
  let rgb: number[] | null = null;
  for (const k of ["data-value", "data-color", "data-colour"]) rgb ??= parseColour(el.getAttribute(k) ?? "");
  if (!rgb && el.childElementCount === 0 && !/\S/.test(el.textContent ?? "")) {
    const own = getComputedStyle(el).backgroundColor;
    const bg = parseColour(own);
    const kin = Array.from(el.parentElement?.children ?? []).filter((k) => k !== el && k.localName === el.localName);
    const palette = kin.slice(0, 12).some((k) => {
      const c = getComputedStyle(k).backgroundColor;
      return c !== own && (parseColour(c)?.[3] ?? 0) > 0.5;
    });
    if (bg && bg[3] > 0.5 && palette) rgb = bg;
  }
  if (!rgb) return "";
  const hex = "#" + rgb.slice(0, 3).map((n) => Math.round(n).toString(16).padStart(2, "0")).join("");
  return `${colourName(rgb[0], rgb[1], rgb[2])} (${hex})`;
}

/** [r, g, b, alpha] of `#rgb`, `#rrggbb`, `rgb()` or `rgba()` text; null for anything else. */
export function parseColour(text: string): number[] | null {
  const t = text.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(t)?.[1];
  if (hex) {
    const full = hex.length === 3 ? hex.replace(/./g, "$&$&") : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)).concat(1);
  }
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:[\s,/]+([\d.]+%?))?\s*\)$/.exec(t);
  if (!m) return null;
  const alpha = m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : parseFloat(m[4]);
  return [+m[1], +m[2], +m[3], alpha];
}

/**
 * The common name of a colour, by hue, saturation and lightness: black, white, gray, or one of twelve hues
 * (brown for dark orange and red, pink for light red and magenta, purple for dark magenta), "light" or "dark"
 * before it at either end.
 */
export function colourName(r: number, g: number, b: number): string {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B), min = Math.min(R, G, B), l = (max + min) / 2, d = max - min;
  if (l < 0.1) return "black";
  if (l > 0.95) return "white";
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  const tone = l > 0.75 ? "light " : l < 0.3 ? "dark " : "";
  if (s < 0.15) return tone + "gray";
  let h = max === R ? ((G - B) / d) % 6 : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  h = (h * 60 + 360) % 360;
  const HUES: [number, string][] = [
    [15, "red"],
    [45, "orange"],
    [70, "yellow"],
    [165, "green"],
    [195, "cyan"],
    [255, "blue"],
    [290, "purple"],
    [335, "magenta"],
    [360, "red"],
  ];
  const hue = HUES.find(([end]) => h < end)![1];
  if ((hue === "red" || hue === "magenta") && l > 0.75) return "pink";
  if (hue === "magenta" && l < 0.4) return "purple";
  if ((hue === "orange" || hue === "red") && l < 0.35 && s < 0.9) return "brown";
  return tone + hue;
}

/** The naming functions, as the composer takes them. */
export const NAMING = [namingWords, wordsOf, fileName, classWords, nameOf, swatchColour, parseColour, colourName];
