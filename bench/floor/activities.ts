/** Trivial activities of the floor workflows: they return at once. */
export const floorActivities = {
  async floorTool(): Promise<string> {
    return 'ok';
  },
  async floorNext(): Promise<string> {
    return 'done';
  },
  async floorStep(kind: string): Promise<string> {
    return kind;
  },
};

export type FloorActivities = typeof floorActivities;
