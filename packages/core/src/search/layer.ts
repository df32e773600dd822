import { feature } from "../http/Feature"
import { SearchHttp } from "./Http"
import { Search } from "./Search"

export const searchFeature = feature(Search.Default, SearchHttp)
