/* Boxes round the words of a page's article that the other side of the change does not have (a longest common
   subsequence of the words), drawn over the page: positioned and pointer-less, the page's own layout untouched.
   Run by render/site/pictures.py in each page shot, given [the other side's words (null: box none), the colour];
   it returns how many words it boxed, or -1 when the two sides are too long to compare. */
([other, colour]) => {
  const root = document.querySelector("article") || document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const words = [];
  for (let node; (node = walker.nextNode());) {
    if (node.parentElement.closest(".headerlink")) continue;  // a heading's permalink mark, shown on hover only
    for (const m of node.data.matchAll(/\S+/g)) words.push({node, start: m.index, end: m.index + m[0].length, text: m[0]});
  }
  if (other === null) return 0;
  const n = words.length, m = other.length;
  if (n * m > 40000000) return -1;
  const width = m + 1, table = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--)
    table[i * width + j] = words[i].text === other[j] ? table[(i + 1) * width + j + 1] + 1
      : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
  const marked = [];
  for (let i = 0, j = 0; i < n;) {
    if (j < m && words[i].text === other[j]) { i++; j++; }
    else if (j < m && table[i * width + j + 1] >= table[(i + 1) * width + j]) j++;
    else marked.push(words[i++]);
  }
  for (const w of marked) {
    const range = document.createRange();
    range.setStart(w.node, w.start);
    range.setEnd(w.node, w.end);
    for (const r of range.getClientRects()) {
      const box = document.createElement("div");
      box.style.cssText = `position:absolute;left:${r.left + scrollX - 2}px;top:${r.top + scrollY - 2}px;` +
        `width:${r.width + 4}px;height:${r.height + 4}px;border:2px solid ${colour};pointer-events:none;z-index:99999`;
      document.body.appendChild(box);
    }
  }
  return marked.length;
}
