import { create } from 'xmlbuilder2';
import type { VmSize } from '../vm-hosts.js';
import { CPU_PERIOD_US, cpuQuota } from './domain-xml.js';

/** What a resize changes of a domain, as its persistent definition has it. */
export interface DomainSize {
  vcpus: number;
  memoryMb: number;
  /** the cputune quota per vCPU, or null without a limit */
  quotaUs: number | null;
}

type Doc = ReturnType<typeof create>;

function rootOf(doc: Doc): Element {
  return doc.root().node as unknown as Element;
}

const KIB_PER_UNIT: Record<string, number> = { b: 1 / 1024, bytes: 1 / 1024, k: 1, kib: 1, kb: 1000 / 1024, m: 1024, mib: 1024, mb: 1e6 / 1024, g: 1024 ** 2, gib: 1024 ** 2, gb: 1e9 / 1024 };

/** The size of the domain defined by `xml` (`virsh dumpxml --inactive`). */
export function domainSize(xml: string): DomainSize {
  const root = rootOf(create(xml));
  const mem = root.getElementsByTagName('memory')[0];
  const unit = (mem?.getAttribute('unit') ?? 'KiB').toLowerCase();
  const kib = Number(mem?.textContent ?? 0) * (KIB_PER_UNIT[unit] ?? 1);
  const quota = root.getElementsByTagName('cputune')[0]?.getElementsByTagName('quota')[0]?.textContent;
  return { vcpus: Number(root.getElementsByTagName('vcpu')[0]?.textContent ?? 0), memoryMb: Math.round(kib / 1024), quotaUs: quota ? Number(quota) : null };
}

/** Whether the domain already has the vCPUs, memory and CPU limit of `size`. */
export function hasSize(current: DomainSize, size: VmSize): boolean {
  return current.vcpus === size.cpu && current.memoryMb === size.memoryMb && current.quotaUs === cpuQuota(size.cpuLimit);
}

/**
 * The definition `xml` with the vCPUs, memory and CPU limit of `size`, everything else kept (disks,
 * NICs, metadata). A CPU topology would have to match the vCPU count: it is dropped.
 */
export function resizedDomainXml(xml: string, size: VmSize): string {
  const doc = create(xml);
  const root = rootOf(doc);
  const owner = root.ownerDocument;
  const set = (tag: string, text: string, attrs: Record<string, string>) => {
    let el = root.getElementsByTagName(tag)[0];
    if (!el) {
      el = owner.createElement(tag);
      root.appendChild(el);
    }
    for (const a of Array.from(el.attributes).map((x) => x.name)) el.removeAttribute(a);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    el.textContent = text;
  };
  set('memory', String(size.memoryMb), { unit: 'MiB' });
  set('currentMemory', String(size.memoryMb), { unit: 'MiB' });
  set('vcpu', String(size.cpu), { placement: 'static' });
  for (const t of Array.from(root.getElementsByTagName('topology'))) t.parentNode?.removeChild(t);
  const tune = root.getElementsByTagName('cputune')[0];
  for (const tag of ['period', 'quota']) for (const e of Array.from(tune?.getElementsByTagName(tag) ?? [])) tune!.removeChild(e);
  const quota = cpuQuota(size.cpuLimit);
  if (quota !== null) {
    let t = tune;
    if (!t) {
      t = owner.createElement('cputune');
      root.appendChild(t);
    }
    const period = owner.createElement('period');
    period.textContent = String(CPU_PERIOD_US);
    const q = owner.createElement('quota');
    q.textContent = String(quota);
    t.appendChild(period);
    t.appendChild(q);
  } else if (tune && tune.childNodes.length === 0) {
    root.removeChild(tune);
  }
  return doc.end({ prettyPrint: true, headless: true });
}
