/**
 * Decision tokens a run has accepted, with when each expires: a token is good for one decision, once. Tokens past
 * their expiry are forgotten, since they cannot verify again anyway, so the set stays small however long the run.
 */
export class UsedTokens {
  #expiries = new Map<string, number>();

  get ids(): ReadonlySet<string> {
    return new Set(this.#expiries.keys());
  }

  use(id: string, expiresAt: number, now: number): void {
    for (const [known, expiry] of this.#expiries) if (expiry < now) this.#expiries.delete(known);
    this.#expiries.set(id, expiresAt);
  }

  restore(entries: [string, number][]): void {
    this.#expiries = new Map(entries);
  }

  carry(): [string, number][] {
    return [...this.#expiries];
  }
}
