/* Translation unit kept so the target builds before the codec sources land; removed with them. */
