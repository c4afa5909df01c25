module github.com/k8sexplain/k8sexplain/oracle

go 1.26.8
