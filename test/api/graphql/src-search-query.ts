/**
 * The exact document `src search` (non-stream) sends, copied from src-cli cmd/src/search.go and
 * search_alert.go (reference §6.4), whitespace included.
 */

export const SRC_SEARCH_QUERY = `fragment FileMatchFields on FileMatch {
				repository {
					name
					url
				}
				file {
					name
					path
					url
					content
					commit {
						oid
					}
				}
				lineMatches {
					preview
					lineNumber
					offsetAndLengths
					limitHit
				}
			}

			fragment CommitSearchResultFields on CommitSearchResult {
				messagePreview {
					value
					highlights{
						line
						character
						length
					}
				}
				diffPreview {
					value
					highlights {
						line
						character
						length
					}
				}
				label {
					html
				}
				url
				matches {
					url
					body {
						html
						text
					}
					highlights {
						character
						line
						length
					}
				}
				commit {
					repository {
						name
					}
					oid
					url
					subject
					author {
						date
						person {
							displayName
						}
					}
				}
			}

		  fragment RepositoryFields on Repository {
			name
			url
			externalURLs {
			  serviceType
			  url
			}
			label {
				html
			}
		  }

		  query ($query: String!) {
			site {
				buildVersion
			}
			search(query: $query) {
			  results {
				results{
				  __typename
				  ... on FileMatch {
					...FileMatchFields
				  }
				  ... on CommitSearchResult {
					...CommitSearchResultFields
				  }
				  ... on Repository {
					...RepositoryFields
				  }
				}
				limitHit
				cloning {
				  name
				}
				missing {
				  name
				}
				timedout {
				  name
				}
				resultCount
				elapsedMilliseconds
				...SearchResultsAlertFields
			  }
			}
		  }
		
	fragment SearchResultsAlertFields on SearchResults {
		alert {
			title
			description
			proposedQueries {
				description
				query
			}
		}
	}
`;

export const REPOSITORIES_PAGE_QUERY = `query Repositories($first: Int, $after: String) {
  repositories(first: $first, after: $after) {
    nodes { id name url description isFork isArchived isPrivate }
    totalCount
    pageInfo { hasNextPage endCursor }
  }
}`;
