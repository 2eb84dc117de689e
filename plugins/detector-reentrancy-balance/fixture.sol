pragma solidity ^0.8.0;

interface IToken {
    function balanceOf(address a) external view returns (uint256);
    function transferFrom(address from, address to, uint256 v) external returns (bool);
}

contract Pool {
    mapping(address => uint256) public credit;
    uint256 public reserve;
    bool locked;

    modifier nonReentrant() {
        require(!locked);
        locked = true;
        _;
        locked = false;
    }

    function depositStale(IToken token, uint256 amount) external {
        uint256 before = token.balanceOf(address(this));
        require(token.transferFrom(msg.sender, address(this), amount)); // expect: reentrancy-balance
        credit[msg.sender] += amount;
        reserve = before + amount;
    }

    function depositMeasured(IToken token, uint256 amount) external {
        uint256 before = token.balanceOf(address(this));
        require(token.transferFrom(msg.sender, address(this), amount));
        credit[msg.sender] += token.balanceOf(address(this)) - before;
    }

    function depositLocked(IToken token, uint256 amount) external nonReentrant {
        uint256 before = token.balanceOf(address(this));
        require(token.transferFrom(msg.sender, address(this), amount));
        reserve = before + amount;
    }
}
