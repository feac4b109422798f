// WCAG 2.1 AA checks of a page as displayed (the table's browser tests): each element's own
// text against the background it is drawn on (ancestors' colours composed) reaches 4.5:1, or
// 3:1 for large text; every control of the table and of its start form is at least 24x24 px.
() => {
  function rgba(s) {
    const m = s.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(",").map((x) => parseFloat(x));
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  }
  function lum(c) {
    const f = (v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  }
  function background(el) {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) {
        layers.push(c);
        if (c[3] >= 1) break;
      }
    }
    let out = [255, 255, 255];
    for (let i = layers.length - 1; i >= 0; i--) {
      const c = layers[i];
      out = out.map((v, k) => c[k] * c[3] + v * (1 - c[3]));
    }
    return out;
  }
  const bad = [], small = [];
  const controls = "button, a[href], input:not([type=hidden]), select, summary, label:has(input)";
  for (const el of document.querySelectorAll("body *")) {
    const st = getComputedStyle(el);
    if (st.visibility === "hidden" || st.display === "none") continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const text = [...el.childNodes].filter((n) => n.nodeType === 3)
      .map((n) => n.textContent.trim()).join("");
    if (text) {
      const fg = rgba(st.color), bg = background(el);
      const ink = fg[3] < 1 ? fg.slice(0, 3).map((v, k) => v * fg[3] + bg[k] * (1 - fg[3])) : fg;
      const l1 = lum(ink), l2 = lum(bg);
      const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
      const size = parseFloat(st.fontSize), bold = parseInt(st.fontWeight, 10) >= 700;
      const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
      if (ratio < need) {
        bad.push(`${el.tagName}.${el.className} "${text.slice(0, 30)}" ${ratio.toFixed(2)}`);
      }
    }
    if (el.matches(controls) && el.closest("#table, #play")) {
      if (el.matches("input[type=radio], input[type=checkbox]") && el.closest("label")) continue;
      // a link inside a sentence is exempt (WCAG 2.5.8, inline)
      if (el.matches("a[href]") && st.display === "inline" && el.closest("p, li, td")) continue;
      if (r.width < 24 || r.height < 24) {
        small.push(`${el.tagName}#${el.id} "${(el.textContent || "").trim().slice(0, 20)}" ` +
                   `${Math.round(r.width)}x${Math.round(r.height)}`);
      }
    }
  }
  return {bad, small};
}
