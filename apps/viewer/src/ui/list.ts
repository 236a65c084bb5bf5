/**
 * A virtualised list: a fixed row height, only the rows in view (plus a margin) exist in the DOM,
 * and their nodes are reused while scrolling. Works for any number of rows.
 */
import { KINDS, STATUSES, type ListData } from '../protocol.js';
import { visible } from '../model/text.js';
import { h } from './dom.js';

/** Height of one row in pixels (the CSS uses the same). */
export const ROW_HEIGHT = 26;
const OVERSCAN = 4;
const utf8 = new TextDecoder();

/** The list of facts. */
export class VirtualList {
  private data: ListData | null = null;
  private indices: Int32Array = new Int32Array(0);
  private readonly spacer: HTMLElement;
  private readonly pool: HTMLElement[] = [];
  private selectedSeq = 0;
  private frame = 0;

  /**
   * @param viewport the scrolling element
   * @param onPick called with the seq of a clicked row
   */
  constructor(
    private readonly viewport: HTMLElement,
    private readonly onPick: (seq: number) => void,
  ) {
    this.spacer = h('div', { class: 'spacer' });
    viewport.append(this.spacer);
    viewport.addEventListener('scroll', () => this.schedule(), { passive: true });
    window.addEventListener('resize', () => this.schedule());
    viewport.addEventListener('click', (e) => {
      const row = (e.target as HTMLElement).closest<HTMLElement>('.row');
      if (row?.dataset.seq) this.onPick(Number(row.dataset.seq));
    });
  }

  /** Shows a new log's rows (all of them). */
  setData(data: ListData): void {
    this.data = data;
    // Another log: every reused node must be filled again, even at the same seq.
    for (const el of this.pool) delete el.dataset.seq;
    const all = new Int32Array(data.count);
    for (let i = 0; i < all.length; i++) all[i] = i;
    this.setIndices(all);
  }

  /** Shows only the rows at `indices`. */
  setIndices(indices: Int32Array): void {
    this.indices = indices;
    this.spacer.style.height = `${indices.length * ROW_HEIGHT}px`;
    this.render();
  }

  /** How many rows are shown. */
  get visibleCount(): number {
    return this.indices.length;
  }

  /** Marks `seq` selected and scrolls it into view; false when the filter hides it. */
  select(seq: number): boolean {
    this.selectedSeq = seq;
    const pos = this.positionOf(seq - 1);
    if (pos >= 0) {
      const top = pos * ROW_HEIGHT;
      const vp = this.viewport;
      if (top < vp.scrollTop || top + ROW_HEIGHT > vp.scrollTop + vp.clientHeight)
        vp.scrollTop = Math.max(0, top - vp.clientHeight / 3);
    }
    this.render();
    return pos >= 0;
  }

  private positionOf(index: number): number {
    let lo = 0;
    let hi = this.indices.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = this.indices[mid]!;
      if (v === index) return mid;
      if (v < index) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private schedule(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  private render(): void {
    const data = this.data;
    if (!data) return;
    this.renderRows(data);
  }

  private renderRows(data: ListData): void {
    const vp = this.viewport;
    const first = Math.max(0, Math.floor(vp.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.indices.length, Math.ceil((vp.scrollTop + vp.clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const needed = Math.max(0, last - first);
    while (this.pool.length < needed) {
      const el = h(
        'div',
        { class: 'row' },
        h('span', { class: 'seq' }),
        h('span', { class: 'kind' }),
        h('span', { class: 'title' }),
      );
      this.pool.push(el);
      vp.append(el);
    }
    for (let k = 0; k < this.pool.length; k++) {
      const el = this.pool[k]!;
      if (k >= needed) {
        el.hidden = true;
        continue;
      }
      const pos = first + k;
      const i = this.indices[pos]!;
      const seq = i + 1;
      el.hidden = false;
      el.style.transform = `translateY(${pos * ROW_HEIGHT}px)`;
      if (el.dataset.seq !== String(seq)) {
        el.dataset.seq = String(seq);
        const kind = KINDS[data.kind[i]!] ?? 'unknown';
        el.className = `row k-${kind} s-${STATUSES[data.status[i]!] ?? 'info'}`;
        (el.children[0] as HTMLElement).textContent = String(seq);
        (el.children[1] as HTMLElement).textContent = kind;
        (el.children[2] as HTMLElement).textContent = visible(
          utf8.decode(data.titles.subarray(data.offsets[i]!, data.offsets[i + 1]!)),
        );
      }
      el.classList.toggle('selected', seq === this.selectedSeq);
    }
  }
}
