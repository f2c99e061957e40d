import { DataTypes } from 'sequelize';

/** Column shorthands shared by the model definitions (the migrations own the real constraints). */
export const col = {
  id: () => ({ type: DataTypes.TEXT, primaryKey: true }),
  serial: () => ({ type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true }),
  text: (allowNull = true) => ({ type: DataTypes.TEXT, allowNull }),
  int: (allowNull = false) => ({ type: DataTypes.INTEGER, allowNull }),
  time: (allowNull = true) => ({ type: DataTypes.DATE, allowNull }),
  json: () => ({ type: DataTypes.JSONB, allowNull: false }),
  bool: () => ({ type: DataTypes.BOOLEAN, allowNull: false }),
  real: () => ({ type: DataTypes.REAL, allowNull: true }),
  /** NUMERIC, which pg returns as a string: convert with Number() where read. */
  money: () => ({ type: DataTypes.DECIMAL(14, 6), allowNull: false }),
  date: () => ({ type: DataTypes.DATEONLY, allowNull: true }),
};
