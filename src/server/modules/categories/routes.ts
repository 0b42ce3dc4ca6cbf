import { API } from '../../../contract/api-paths';
import { CATEGORIES } from '../../../contract/categories';
import { categoryListSchema } from '../../../contract/site';
import type { Module } from '../../context';
import { countByCategory } from './queries';

export const categoriesModule: Module = (app, { database }) => {
  app.get(
    API.categories,
    {
      config: { publicCache: true },
      schema: {
        tags: ['categories'],
        summary: 'Every category with its live resource count',
        response: { 200: categoryListSchema },
      },
    },
    async function listCategoriesHandler() {
      const counts = await countByCategory(database);
      return {
        items: CATEGORIES.map((c) => ({
          value: c.value,
          slug: c.slug,
          title: c.title,
          description: c.description,
          tags: [...c.tags],
          count: counts.get(c.value) ?? 0,
        })),
      };
    },
  );
};
